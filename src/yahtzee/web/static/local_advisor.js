// The advisor of a device table's rules (hints, bots, the review offline): its table file
// fetched once a page and decoded (advisor_table.js), then kept in memory. Offline, the
// file is the one the app's worker keeps under its versioned address (the server names
// it /api/advisor/RULES/table?v=SOLVER.FORMAT.SCORING): found in the worker's caches by
// its scoring rules, so that any rule set scored alike uses it. A table the worker does
// not keep (another rule set's) is fetched from the server once, online, and kept on the
// device (Cache Storage, `TABLES`) under the versioned address the server names
// (Content-Location): the next game of those rules advises and plays offline. No DOM.

import { fetchAdvisorTable, tableCard } from "./advisor_table.js";
import { Advisor, scoringKey } from "./advisor.js";
import { t } from "./i18n.js";

export const TABLES = "yahtzee-tables";  // the tables kept on the device (not the app's release)
const made = new Map();  // scoring key -> Promise<Advisor>
const ready = new Set();  // the scoring keys whose advisor is made

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");

/** The address of a rule set's table: a kept, versioned one of the same scoring if the
 *  app's worker has one, else the server's unversioned address (of the rule set less a
 *  playoff, which scores nothing). */
export async function tableAddress(ruleSet) {
  const base = String(ruleSet.name).replace(/\+playoff$/, "");
  const wanted = `.${slug(scoringKey(ruleSet.rules))}`;
  try {
    if (globalThis.caches) {
      for (const name of await globalThis.caches.keys()) {
        for (const request of await (await globalThis.caches.open(name)).keys()) {
          const url = new URL(request.url);
          if (/^\/api\/advisor\/[^/]+\/table$/.test(url.pathname) && (url.searchParams.get("v") || "").endsWith(wanted)) return url.pathname + url.search;
        }
      }
    }
  } catch { /* no caches to read: ask the server */ }
  return `/api/advisor/${encodeURIComponent(base)}/table`;
}

/** `fetch` for a table file: a copy kept on the device first (any cache: the worker's
 *  release or `TABLES`), else the server, whose answer is kept in `TABLES` under the
 *  versioned address it names. A file asked again past the caches (`cache: "reload"`:
 *  the copy failed its checks) is fetched anew and replaces the copy. */
async function keptFetch(address, init = {}) {
  const store = globalThis.caches;
  if (store && init.cache !== "reload") {
    const found = await store.match(address).catch(() => undefined);
    if (found) return found;
  }
  const answer = await globalThis.fetch(address, init);
  if (answer.ok && store) {  // (a browser: caches come with a location)
    const where = new URL(answer.headers.get("content-location") || address, globalThis.location.href).href;
    try { await (await store.open(TABLES)).put(where, answer.clone()); } catch { /* storage full: used, not kept */ }
  }
  return answer;
}

/** The advisor of `ruleSet` (an entry of /api/rules' rule_sets); an Error with a player's
 *  message when its table cannot be had. */
export function advisorFor(ruleSet) {
  const key = scoringKey(ruleSet.rules);
  if (!made.has(key)) {
    const loading = (async () => {
      let table;
      try {
        table = await fetchAdvisorTable(await tableAddress(ruleSet), { scoring: key, card: tableCard(ruleSet) }, keptFetch);
      } catch (error) {
        throw new Error(t("The advisor is not on this device yet ({reason}): open the app once with a connection to fetch it.", { reason: error.message.replace(/\.$/, "") }));
      }
      const advisor = new Advisor(table, ruleSet);
      ready.add(key);
      return advisor;
    })();
    made.set(key, loading);
    loading.catch(() => made.delete(key));  // tried again next time
  }
  return made.get(key);
}

/** Whether the advisor of `ruleSet` is ready (no waiting for its table). */
export const advisorReady = (ruleSet) => ready.has(scoringKey(ruleSet.rules));
