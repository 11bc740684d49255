// The article every consent page shares: same head styles, text and banner look, so the
// pages differ only in the consent library and its markup.

const PARAGRAPH =
  'The council met on Tuesday to discuss the new cycle path along the river. Residents asked for better lighting, ' +
  'wider crossings and a budget that covers the bridge repairs before winter; the vote is expected next month.';

export const ARTICLE_STYLE = `body { font: 18px/1.5 Georgia, serif; margin: 0 auto; max-width: 40rem; padding: 1rem; }
  #consent-ui { background: #fff; padding: 1rem; box-shadow: 0 -2px 8px #0003; }`;

export function articleBody() {
  const paragraphs = Array.from({ length: 12 }, (_, index) => `<p>${index + 1}. ${PARAGRAPH}</p>`).join('\n  ');
  return `<h1>Council backs the river cycle path</h1>\n  ${paragraphs}`;
}

export function articlePage({ head, body }) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width,initial-scale=1">
  <title>Council backs the river cycle path</title>
  ${head}
  <style>${ARTICLE_STYLE}</style>
</head>
<body>
  ${body}
</body>
</html>
`;
}
