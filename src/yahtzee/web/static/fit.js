// Names drawn whole where they can be: a name longer than its place is drawn a step
// smaller, then another (as a phone's own labels shrink to fit), and only then cut short
// with an ellipsis; a name cut short is said whole in its title. Each step reads every
// name's width at once, so the page is laid out at most three times.

const STEPS = ["fit-1", "fit-2"];

const overflowing = (nodes) => nodes.filter((node) => node.scrollWidth > node.clientWidth);

export function fitText(nodes) {
  let left = overflowing([...nodes]);
  for (const step of STEPS) {
    if (!left.length) return;
    for (const node of left) { node.classList.remove(...STEPS); node.classList.add(step); }
    left = overflowing(left);
  }
  for (const node of left) node.title = node.textContent;
}
