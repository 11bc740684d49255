/**
 * The runtime's own stylesheets, each added once to the document head: the layouts' with the
 * first element laid out that needs it (not `nodisplay`, which is hidden inline).
 */
const CSS =
  '.page-layout-fixed{display:inline-block;position:relative}' +
  '.page-layout-fixed-height,.page-layout-responsive,.page-layout-intrinsic,.page-layout-container,' +
  '.page-layout-flex-item{display:block;position:relative}.page-layout-flex-item{flex:1 1 auto}' +
  '.page-layout-responsive,.page-layout-intrinsic{width:100%}' +
  '.page-layout-fill{display:block;position:absolute;top:0;left:0;width:100%;height:100%}';

/** The built-in elements' content (a child filling the box, the fake ad): added with their part. */
export const ELEMENTS_CSS =
  '.page-fill{position:absolute;top:0;left:0;width:100%;height:100%;border:0;box-sizing:border-box}' +
  'page-img>img{object-fit:cover}' +
  '.page-fake-ad{display:flex;align-items:center;justify-content:center;background:repeating-linear-gradient(45deg,#eee,#eee 8px,#f7f7f7 8px,#f7f7f7 16px);outline:1px dashed #999;font:12px sans-serif;color:#555;overflow:hidden}';

export function installStyles(document: Document, css = CSS): void {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
}
