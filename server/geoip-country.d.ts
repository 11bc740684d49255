/** The part of geoip-country's API this server uses (the package ships no types). */
declare module 'geoip-country' {
  type Lookup = { readonly country: string };
  const geoip: { lookup(ip: string): Lookup | null };
  export default geoip;
}
