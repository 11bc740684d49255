/**
 * CMP presets selected by `<page-consent type="...">`: a base config that the inline config is
 * merged over. The presets themselves come with the CMP integrations; the registry starts empty.
 */
export const presets: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {};
