// The offline rules engine's one error: a refusal with the core's code and a message a
// player understands (as yahtzee.core's IllegalMove and InvalidInput). No DOM.

export class RuleError extends Error {
  /** kind: "illegal_move" (the rules forbid it now) or "invalid_input" (not understood);
   *  code: the core's code (`not_your_turn`, `box_filled`, ...), else the kind. */
  constructor(message, code, kind = "illegal_move") {
    super(message);
    this.name = "RuleError";
    this.kind = kind;
    this.code = code || kind;
  }
}

export const illegal = (message, code) => new RuleError(message, code, "illegal_move");
export const invalid = (message, code) => new RuleError(message, code, "invalid_input");

/** A short, safe rendering of a value for a message, as the core's `show` (Python's repr). */
export function show(value, limit = 40) {
  let text;
  if (typeof value === "string") text = `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  else if (value === null || value === undefined) text = "None";
  else if (value === true || value === false) text = value ? "True" : "False";
  else if (typeof value === "number") text = String(value);
  else { try { text = JSON.stringify(value) ?? String(value); } catch { text = String(value); } }
  return text.length <= limit ? text : `${text.slice(0, limit - 3)}...`;
}
