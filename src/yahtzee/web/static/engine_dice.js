// Dice and keeps for the offline rules engine, as yahtzee.core.dice: five dice are a
// sorted text of faces ("13356"), a keep a sorted text of zero to five faces ("" keeps
// none; its event text is "-"). The engine never rolls: dice come from the caller or an
// injected dice source. The numbers (dice, faces) come from the rules (GET /api/rules).
// No DOM.

import { invalid, show } from "./engine_errors.js";
import { t, tn } from "./i18n.js";

const EMPTY_KEEP_WORDS = new Set(["", "-", "none", "nothing", "no dice", "0 dice"]);
const SEPARATORS = /[\s,;/]+|(?<=[0-9])-(?=[0-9])/;
const BRACKETS = /^[\s[\](){}]+|[\s[\](){}]+$/g;

/** The dice rules of a rule set: `rules` is /api/rules' "rules" object. */
export function diceRules(rules) {
  const faces = Array.from({ length: rules.faces }, (_, i) => i + 1);
  return { count: rules.dice, faces, digits: new Set(faces.map(String)) };
}

// The refusal of a token that is not a face (`text`: the whole text it came in, or null).
function notAFace(token, text, faces) {
  const said = { face: token, text, low: faces[0], high: faces[faces.length - 1] };
  return text === null ? t("{face} is not a die face: each die shows {low} to {high}.", said)
    : t("{face} in {text} is not a die face: each die shows {low} to {high}.", said);
}

function facesFromText(text, what, dice) {
  if (typeof text !== "string") {
    const kind = typeof text;
    throw invalid(what === "Keep" ? t("Keep must be text like 13356, not {kind}.", { kind }) : t("Dice must be text like 13356, not {kind}.", { kind }));
  }
  const body = text.trim().replace(BRACKETS, "");
  const tokens = SEPARATORS.test(body) ? body.split(SEPARATORS).filter(Boolean) : Array.from(body);
  for (const token of tokens) {
    if (!dice.digits.has(token)) {
      throw invalid(notAFace(show(token), token === text.trim() ? null : show(text), dice.faces));
    }
  }
  return tokens.map(Number).sort((a, b) => a - b);
}

/** Five dice from text ("13356", "1 3 3 5 6") or an array of faces, as sorted text. */
export function parseDice(value, dice) {
  const faces = Array.isArray(value) ? checkFaces(value, dice) : facesFromText(value, "Dice", dice);
  if (!faces.length) {
    throw invalid(t("No dice given: write five faces from {low} to {high}, like 13356.", { low: dice.faces[0], high: dice.faces[dice.faces.length - 1] }));
  }
  if (faces.length !== dice.count) {
    throw invalid(tn("{n} die in {text}; a roll has exactly five dice, like 13356.", "{n} dice in {text}; a roll has exactly five dice, like 13356.",
      faces.length, { text: show(Array.isArray(value) ? faces.join("") : value) }));
  }
  return faces.join("");
}

/** A keep from text ("33", "3 3", "-" or "" for none) or an array of faces, as sorted text. */
export function parseKeep(value, dice) {
  if (typeof value === "string" && EMPTY_KEEP_WORDS.has(value.trim().toLowerCase())) return "";
  const faces = Array.isArray(value) ? checkFaces(value, dice) : facesFromText(value, "Keep", dice);
  if (faces.length > dice.count) {
    throw invalid(tn("{n} die in {text}; you can keep at most five.", "{n} dice in {text}; you can keep at most five.",
      faces.length, { text: show(Array.isArray(value) ? faces.join("") : value) }));
  }
  return faces.join("");
}

function checkFaces(values, dice) {
  for (const face of values) {
    if (!Number.isInteger(face) || !dice.faces.includes(face)) throw invalid(notAFace(show(face), null, dice.faces));
  }
  return [...values].sort((a, b) => a - b);
}

/** A keep as the events write it: "-" for none. */
export const keepText = (keep) => keep || "-";
/** Faces spaced as players write them ("3 3 5"; "nothing" for no dice). */
// Translators: the dice kept when none are ("keep nothing")
export const spaced = (faces) => faces.split("").join(" ") || t("nothing");

/** How many dice show each face: counts[face - 1]. */
export function counts(faces, dice) {
  const found = dice.faces.map(() => 0);
  for (const digit of faces) found[Number(digit) - 1] += 1;
  return found;
}

export const total = (faces) => { let sum = 0; for (const digit of faces) sum += Number(digit); return sum; };
export const isYahtzee = (faces) => faces.length > 0 && faces[0] === faces[faces.length - 1];

/** Whether `keep` is a sub-multiset of `faces` (both sorted texts). */
export function contains(faces, keep) {
  let at = 0;
  for (const digit of keep) {
    at = faces.indexOf(digit, at);
    if (at < 0) return false;
    at += 1;
  }
  return true;
}

/** Every distinct roll of the dice, in lexicographic order (252 for five six-sided dice). */
export function allDice(dice) {
  const found = [];
  const grow = (prefix, from) => {
    if (prefix.length === dice.count) { found.push(prefix); return; }
    for (const face of dice.faces) if (face >= from) grow(prefix + face, face);
  };
  grow("", dice.faces[0]);
  return found;
}

/** Every distinct keep these dice allow, by size then lexicographically. */
export function keepsOf(faces) {
  const found = new Set();
  for (let mask = 0; mask < 1 << faces.length; mask++) {
    let keep = "";
    for (let i = 0; i < faces.length; i++) if (mask & (1 << i)) keep += faces[i];
    found.add(keep);
  }
  return [...found].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** The dice showing after throwing `thrown` (faces) around `keep`, as sorted text. */
export function withThrown(keep, thrown, dice) {
  return parseDice([...keep.split("").map(Number), ...thrown], dice);
}
