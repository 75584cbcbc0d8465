// The page's language (issue 55): which one, its catalog, the page's own marked text, and
// the picker. Chosen as the server chooses (core/language.py): the address's ?lang= (then
// remembered), else the picker's remembered choice (local storage), else the browser's
// languages, else English. The languages spoken are the server's (GET /api/i18n/{code}
// answers them with the catalog): no list of them is kept here. The cookie `lang` tells the
// server, so that what it says (errors, the rules' words) is in the same language.
// A catalog that does not come (offline without a kept copy, a server that does not answer
// in time) leaves the page in English: it never waits for long.

import { currentLanguage, t, useCatalog } from "./i18n.js";

const KEY = "yahtzee:lang";  // the picker's choice (a code of ours)
const PARAM = "lang";
const WAIT_MS = 8000;  // a catalog slower than this (50 KB gzipped; a slow phone line): English
const YEAR_S = 365 * 24 * 3600;
const ALSO = { no: "nb", nn: "nb", nob: "nb", nno: "nb" };  // (as core/language.py's _ALSO)
const TAG = /^[A-Za-z]{2,3}(?=$|[-_.@])/;

let spoken = [];  // the server's languages: [{code, name}] (empty until a catalog came)

// The code a language tag names ("de-AT", "nb_NO", "no": nb), or null; with `codes`, only
// one of those.
export function match(tag, codes = null) {
  const found = typeof tag === "string" ? TAG.exec(tag.trim()) : null;
  if (!found) return null;
  const lower = found[0].toLowerCase();
  const code = ALSO[lower] || lower;
  return codes === null || codes.includes(code) ? code : null;
}

function stored() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}
function store(code) {
  try { localStorage.setItem(KEY, code); } catch { /* storage refused: not remembered */ }
}

// The tags wanted, most wanted first: the address's alone when it names one.
function wanted() {
  const asked = new URLSearchParams(location.search).get(PARAM);
  if (asked !== null) return { tags: [asked], fromAddress: true };
  const chosen = stored();
  const browser = Array.isArray(navigator.languages) && navigator.languages.length ? [...navigator.languages] : [navigator.language];
  return { tags: [chosen, ...browser].filter((tag) => typeof tag === "string" && tag), fromAddress: false };
}

async function fetchCatalog(code) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(code)}`, { signal: AbortSignal.timeout(WAIT_MS) });
  if (!response.ok) throw new Error(`no catalog (${response.status})`);
  const catalog = await response.json();
  if (!catalog || typeof catalog !== "object" || typeof catalog.language !== "string") throw new Error("not a catalog");
  return catalog;
}

function languagesOf(catalog) {
  const list = Array.isArray(catalog.languages) ? catalog.languages : [];
  return list.filter((l) => l && typeof l.code === "string" && typeof l.name === "string");
}

// Choose the language and load its catalog (at most two requests: the first guess's
// catalog says which languages there are); then the page's marked text is translated.
export async function startLanguage() {
  const { tags, fromAddress } = wanted();
  const guess = tags.map((tag) => match(tag)).find((code) => code !== null) || "en";
  let catalog = null;
  try {
    catalog = await fetchCatalog(guess);
    spoken = languagesOf(catalog);
    const codes = spoken.map((l) => l.code);
    const chosen = tags.map((tag) => match(tag, codes)).find((code) => code !== null) || "en";
    if (chosen !== catalog.language) {
      catalog = chosen === "en" ? { language: "en", languages: catalog.languages, messages: {} } : await fetchCatalog(chosen);
    }
    if (fromAddress) store(catalog.language);
    document.cookie = `lang=${encodeURIComponent(catalog.language)}; path=/; SameSite=Lax; max-age=${YEAR_S}`;
  } catch {
    catalog = null;  // (English: the code's own text)
  }
  useCatalog(catalog);
  translatePage();
  fillPickers();
  return currentLanguage();
}

// --- The page's own text (index.html) ------------------------------------------------------

// Elements marked data-i18n (leaf elements: their whole text is the message) and the
// attributes named by data-i18n-attr; the English is kept in the element's dataset, so that
// this may run again.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!("i18nEn" in node.dataset)) node.dataset.i18nEn = node.textContent;
    const raw = node.dataset.i18nEn;
    const text = raw.split(/\s+/).filter(Boolean).join(" ");
    if (!text) continue;
    // (spaces at either end kept: "My games" and " waiting for your move" read apart)
    node.textContent = `${/^\s/.test(raw) ? " " : ""}${t(text)}${/\s$/.test(raw) ? " " : ""}`;
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of node.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const keep = `i18nEn${name.replace(/(^|-)([a-z])/g, (_whole, _dash, c) => c.toUpperCase())}`;
      if (!(keep in node.dataset)) {
        if (!node.hasAttribute(name)) continue;
        node.dataset[keep] = node.getAttribute(name);
      }
      const value = node.dataset[keep];
      if (value) node.setAttribute(name, t(value));
    }
  }
}

// --- The picker ----------------------------------------------------------------------------

// Every language picker of the page (select.lang-pick): the server's languages by their own
// names, the one in force chosen; a choice is remembered and the page opens again in it.
export function fillPickers() {
  for (const select of document.querySelectorAll("select.lang-pick")) {
    const holder = select.closest("[data-lang-part]") || select;
    holder.hidden = spoken.length < 2;
    if (spoken.length < 2) continue;
    select.replaceChildren(...spoken.map((l) => {
      const option = document.createElement("option");
      option.value = l.code;
      option.textContent = l.name;
      option.lang = l.code;
      return option;
    }));
    select.value = currentLanguage();
    select.onchange = () => choose(select.value);
  }
}

export function choose(code) {
  if (!spoken.some((l) => l.code === code)) return;
  store(code);
  document.cookie = `lang=${encodeURIComponent(code)}; path=/; SameSite=Lax; max-age=${YEAR_S}`;
  const address = new URL(location.href);
  address.searchParams.delete(PARAM);  // (else the address's language wins again)
  location.replace(address.href);
}
