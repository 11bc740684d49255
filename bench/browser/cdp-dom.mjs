// Where an element is, read through CDP's DOM domain: the harness runs no script in the page
// while a page is measured, so its clicks aim with this and send CDP mouse input.

/** The centre of `selector`'s first box in the page behind `cdp`, or null when it has none. */
export async function centreOf(cdp, selector) {
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  if (!nodeId) return null;
  const { quads } = await cdp.send('DOM.getContentQuads', { nodeId });
  if (!quads.length) return null;
  const [x1, y1, , , x3, y3] = quads[0];
  return { x: (x1 + x3) / 2, y: (y1 + y3) / 2 };
}
