// The page's language (issue 55). Every string the page shows is written in English in
// its module and marked: t("Roll"), tn("{n} die", "{n} dice", n), tp(context, message)
// (a box's name: the context "american box" or "yatzy box"); placeholders are named, in braces, filled from the params object:
// t("{name} scored {points}", {name, points}). The translations are the same gettext
// catalogs the terminal and the command line read, served by the server as data
// (GET /api/i18n/{code}: {language, languages, messages}); no list of strings is kept
// here. Numbers go through Intl (num), plural forms through Intl.PluralRules (every
// language of ours has gettext's two forms: "one" is the first).

let language = "en";
let messages = {};
let plurals = new Intl.PluralRules("en");
const CONTEXT = "\u0004";  // gettext's separator of a context and its message

export function currentLanguage() { return language; }

// Use a catalog the server sent: {language, messages}.
export function useCatalog(catalog) {
  language = (catalog && catalog.language) || "en";
  messages = (catalog && catalog.messages) || {};
  plurals = new Intl.PluralRules(language);
  document.documentElement.lang = language;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g,
    (whole, name) => (name in params ? String(params[name]) : whole));
}

export function t(message, params) {
  const found = messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

export function tp(context, message, params) {
  const found = messages[context + CONTEXT + message];
  return fill(typeof found === "string" && found ? found : message, params);
}

// The singular or plural form for n; n is also the placeholder {n} unless params say.
export function tn(singular, plural, n, params) {
  const found = messages[singular];
  const one = plurals.select(n) === "one";
  const forms = Array.isArray(found) && found[0] ? found : [singular, plural];
  return fill(one ? forms[0] : forms[forms.length - 1], { n, ...params });
}

// A box's name (or short name) as the printed card of its edition (its key in the rules)
// names it in the player's language: the rules data says it in English.
export function boxWords(edition, text) {
  return tp(`${edition || "american"} box`, text);
}

// A number as the language writes it, with exactly `digits` decimals.
export function num(value, digits = 0) {
  return new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}
