/** Fixture pages for the validator tests: one valid complete page, and edits that break one rule each. */

export const CONSENT_CONFIG = {
  consentInstanceId: 'my-site',
  consentRequired: true,
  promptUI: 'prompt',
  postPromptUI: 'settings',
  purposeConsentRequired: ['ads', 'analytics'],
  geoOverride: { eea: { consentRequired: true }, california: { consentRequired: false } },
};

const CDN = 'https://cdn.example';

export const VALID_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="page-consent-blocking" content="page-img,page-ad">
  <title>An article</title>
  <link rel="canonical" href="https://news.example/article">
  <script async src="${CDN}/v0.js"></script>
  <script async custom-element="page-consent" src="${CDN}/v0/page-consent-0.1.js"></script>
  <script async custom-element="page-auto-ads" src="${CDN}/v0/page-auto-ads-0.1.js"></script>
  <script async custom-element="page-geo" src="${CDN}/v0/page-geo-0.1.js"></script>
</head>
<body>
  <page-auto-ads type="adsense" data-ad-client="ca-pub-123" data-block-on-consent></page-auto-ads>
  <page-geo layout="nodisplay">
    <script type="application/json">{"ISOCountryGroups": {"eea": ["preset-eea"], "california": ["preset-us-ca"]}}</script>
  </page-geo>
  <page-consent id="consent" layout="nodisplay">
    <script type="application/json">${JSON.stringify(CONSENT_CONFIG)}</script>
    <div id="prompt" hidden>
      <p>We use cookies for ads and statistics.</p>
      <button on="tap:consent.accept">Accept</button>
      <button on="tap:consent.reject">Reject</button>
      <button on="tap:consent.setPurpose(ads=true)">Ads only</button>
    </div>
    <div id="settings" hidden><button on="tap:consent.prompt">Privacy settings</button></div>
  </page-consent>
  <footer><button on="tap:consent.optOut">Do Not Sell or Share My Personal Information</button></footer>
  <h1>An article</h1>
  <page-img src="/photo.jpg" layout="responsive" width="16" height="9" alt="A photo"></page-img>
  <page-ad data-block-on-consent="_till_accepted" data-block-on-consent-purposes="ads" type="custom" width="300" height="250"
           data-src="https://ads.example/creative?gdpr=\${GDPR}"></page-ad>
  <page-pixel data-block-on-consent src="https://stats.example/hit?page=SOURCE_URL"></page-pixel>
  <page-iframe src="https://embed.example/" layout="fixed-height" height="200"></page-iframe>
  <script type="text/plain" data-block-on-consent="_auto_reject">console.log('after consent');</script>
</body>
</html>
`;

/** VALID_PAGE with `from` replaced by `to` (the test fails if `from` is not in the page). */
export function breakPage(from: string | RegExp, to: string, page = VALID_PAGE): string {
  const broken = page.replace(from, to);
  if (broken === page) throw new Error(`fixture edit found nothing to replace: ${from}`);
  return broken;
}

/** The consent config script of VALID_PAGE replaced by `config`. */
export const withConsentConfig = (config: unknown): string =>
  breakPage(JSON.stringify(CONSENT_CONFIG), JSON.stringify(config));
