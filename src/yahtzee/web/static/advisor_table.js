// The advisor's table file (GET /api/advisor/{rules}/table; its format: docs/protocol.md,
// "The advisor's table file", and yahtzee.solver.web_table): fetched, its checksum
// verified (crypto.subtle), decoded into one value per reachable state. ES module, no
// DOM: the page and node read it alike.

import { t } from "./i18n.js";

export const FORMAT = "yahtzee-advisor-table";
export const VERSION = 1;
const WIDTH = 4; // bytes per value
const MAX_HEADER = 1024;
const UPPER_BOXES = 6; // Aces to Sixes: boxes 0 to 5 of the table's masks
const MOST_DICE = 5; // an upper box holds 0 to 5 dice of its face
const MOST_BOXES = 15; // the most boxes of any edition's card (Yatzy's)
/** The card of a header that says nothing of it: the American one (13 boxes, the Yahtzee
 *  box the 12th, whose 50 the states tell, filled in any order). */
const AMERICAN_CARD = Object.freeze({ boxes: 13, yahtzee_box: 11, ordered: false });

/** A table file that cannot be used (the message says why): the page asks again. */
export class TableError extends Error {
  constructor(message) {
    super(message);
    this.name = "TableError";
  }
}

/** The reachable states' values: value(mask, yf, u) is the expected points still to come
 *  from the start of a turn with the boxes of `mask` filled, the Yahtzee box holding 50
 *  (yf = 1) or not (always 0 on a card whose states do not tell it: yahtzeeBox -1), and
 *  the capped upper subtotal u. */
export class AdvisorTable {
  constructor(header, values, offsets, rank) {
    this.scoring = header.scoring;
    this.solverVersion = header.solver_version;
    this.cap = header.cap;
    this.count = header.count;
    this.boxes = header.boxes; // the card's boxes, the six upper ones first
    this.yahtzeeBox = header.yahtzee_box ?? -1; // the box whose 50 `yf` tells (-1: none)
    this.ordered = header.ordered; // boxes filled top to bottom: the first boxes' masks only
    this.flags = this.yahtzeeBox < 0 ? 1 : 2; // the values of yf
    this.values = values; // Float64Array, one per reachable state, in the file's order
    this.offsets = offsets; // Int32Array [mask * 2 + yf]: where that block starts (-1: none)
    this.rank = rank; // Int16Array [(mask & 63) * (cap + 1) + u]: u's place in its block (-1: none)
    Object.freeze(this);
  }

  /** The state's index in `values`, or -1 for a state no game reaches. */
  index(mask, yf, u) {
    const inside = mask >= 0 && mask < 1 << this.boxes && (yf === 0 || yf < this.flags);
    const start = inside ? this.offsets[mask * this.flags + yf] : -1;
    const place = this.rank[(mask & 63) * (this.cap + 1) + u];
    return start < 0 || place < 0 || u > this.cap ? -1 : start + place;
  }

  value(mask, yf, u) {
    const at = this.index(mask, yf, u);
    if (at < 0) throw new TableError(t("No game reaches the state ({mask}, {yf}, {u}).", { mask, yf, u }));
    return this.values[at];
  }
}

/** For each set of upper boxes (a 6-bit mask): each capped subtotal's place among those
 *  the boxes can hold (-1 where they cannot), and how many they can hold. */
function upperRanks(cap) {
  const width = cap + 1;
  const rank = new Int16Array((1 << UPPER_BOXES) * width).fill(-1);
  const sizes = new Int32Array(1 << UPPER_BOXES);
  const sums = [new Uint8Array(width)];
  sums[0][0] = 1;
  for (let upper = 1; upper < 1 << UPPER_BOXES; upper++) {
    const low = upper & -upper;
    const box = 31 - Math.clz32(low);
    const rest = sums[upper ^ low];
    const found = new Uint8Array(width);
    for (let u = 0; u < width; u++) {
      if (!rest[u]) continue;
      for (let dice = 0; dice <= MOST_DICE; dice++) found[Math.min(cap, u + dice * (box + 1))] = 1;
    }
    sums.push(found);
  }
  for (let upper = 0; upper < 1 << UPPER_BOXES; upper++) {
    let place = 0;
    for (let u = 0; u < width; u++) if (sums[upper][u]) rank[upper * width + u] = place++;
    sizes[upper] = place;
  }
  return { rank, sizes };
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function readHeader(bytes) {
  const end = bytes.subarray(0, MAX_HEADER + 1).indexOf(10);
  let header = null;
  try {
    header = end < 0 ? null : JSON.parse(new TextDecoder().decode(bytes.subarray(0, end)));
  } catch {
    header = null;
  }
  if (header === null || typeof header !== "object" || header.format !== FORMAT) {
    throw new TableError(t("This is not an advisor table file."));
  }
  if (header.version !== VERSION) throw new TableError(t("An advisor table file of format version {version}.", { version: header.version }));
  for (const field of ["count", "scale", "cap", "solver_version"]) {
    if (!Number.isInteger(header[field]) || header[field] <= 0) throw new TableError(t("The advisor table's {field} is not valid.", { field }));
  }
  if (typeof header.sha256 !== "string" || typeof header.scoring !== "string") {
    throw new TableError(t("The advisor table's header lacks a field."));
  }
  const card = { ...AMERICAN_CARD };
  for (const field of Object.keys(card)) if (field in header) card[field] = header[field];
  const { boxes, yahtzee_box: ybox, ordered } = card;
  if (!Number.isInteger(boxes) || boxes <= UPPER_BOXES || boxes > MOST_BOXES || typeof ordered !== "boolean"
      || !(ybox === null || (Number.isInteger(ybox) && ybox >= UPPER_BOXES && ybox < boxes))) {
    throw new TableError(t("The advisor table's card is not valid."));
  }
  return { header: { ...header, ...card }, payload: bytes.subarray(end + 1) };
}

/** The table from a file's bytes (an ArrayBuffer or a Uint8Array), checked: a TableError
 *  unless its format, its checksum, its length and (when given) its scoring rules, solver
 *  version and card (`expected.card`: some of {boxes, yahtzee_box, ordered}, as
 *  `tableCard` gives them) are what they must be. */
export async function decodeAdvisorTable(data, expected = {}) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const { header, payload } = readHeader(bytes);
  if (expected.scoring !== undefined && header.scoring !== expected.scoring) {
    throw new TableError(t("This advisor table is for other rules ({scoring}).", { scoring: header.scoring }));
  }
  if (expected.solverVersion !== undefined && header.solver_version !== expected.solverVersion) {
    throw new TableError(t("This advisor table is of solver version {version}.", { version: header.solver_version }));
  }
  for (const [field, value] of Object.entries(expected.card || {})) {
    if (header[field] !== value) throw new TableError(t("This advisor table is for another card ({field} {value}).", { field, value: JSON.stringify(header[field]) }));
  }
  const { cap, count, boxes, yahtzee_box: ybox, ordered } = header;
  const { rank, sizes } = upperRanks(cap);
  const masks = 1 << boxes;
  const flags = ybox === null ? 1 : 2;
  const offsets = new Int32Array(masks * flags).fill(-1);
  let at = 0;
  for (let mask = 0; mask < masks; mask++) {
    if (ordered && (mask & (mask + 1))) continue; // a box filled below an open one
    for (let yf = 0; yf < flags; yf++) {
      if (yf && !(mask >> ybox & 1)) continue;
      offsets[mask * flags + yf] = at;
      at += sizes[mask & 63];
    }
  }
  if (at !== count) throw new TableError(t("The advisor table's header does not fit its states."));
  if (payload.length !== count * WIDTH) throw new TableError(t("The advisor table is truncated or padded."));
  const digest = await globalThis.crypto.subtle.digest("SHA-256", payload);
  if (hex(digest) !== header.sha256) throw new TableError(t("The advisor table fails its checksum."));
  const values = new Float64Array(count);
  const b1 = count, b2 = 2 * count, b3 = 3 * count;
  let fixed = 0;
  for (let i = 0; i < count; i++) {
    const zigzag = (payload[i] | (payload[b1 + i] << 8) | (payload[b2 + i] << 16) | (payload[b3 + i] << 24)) >>> 0;
    fixed += zigzag & 1 ? -((zigzag + 1) / 2) : zigzag / 2;
    values[i] = fixed / header.scale;
  }
  return new AdvisorTable(header, values, offsets, rank);
}

/** Fetch and decode a table file; a file that fails its checks is fetched once more past
 *  the browser's cache (`cache: "reload"`) before the TableError reaches the caller. */
export async function fetchAdvisorTable(address, expected = {}, fetcher = globalThis.fetch) {
  let failure = null;
  for (const cache of ["default", "reload"]) {
    const answer = await fetcher(address, { cache });
    if (!answer.ok) throw new TableError(t("The advisor table could not be fetched ({status}).", { status: answer.status }));
    try {
      return await decodeAdvisorTable(await answer.arrayBuffer(), expected);
    } catch (error) {
      if (!(error instanceof TableError)) throw error;
      failure = error;
    }
  }
  throw failure;
}

/** What a rule set (as GET /api/rules gives it: {boxes, rules}) says of its table file's
 *  card: how many boxes, and whether they are filled top to bottom. (Whether its states
 *  tell the Yahtzee box's 50 is the file's to say: the Advisor checks it fits the rules.) */
export function tableCard(ruleSet) {
  return { boxes: ruleSet.boxes.length, ordered: Boolean(ruleSet.rules.ordered) };
}
