// The games kept on this device (issue 53): IndexedDB, database "yahtzee", store "tables",
// one record a table keyed by its id. Every failure (storage full, the database blocked
// or gone, a record that fails its checks) is an Error with a player's message; a record
// that fails its checks is reported, never half used. Where the browser has no IndexedDB
// (node, for the tests) the records live in memory for the page's life. No DOM.

import { t } from "./i18n.js";

const DATABASE = "yahtzee";
const STORE = "tables";
const VERSION = 1;
const RECORD_VERSION = 1;
const ID = /^device-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let opened = null;
const memory = new Map();  // without IndexedDB: the records, as clones

// What failed, in whole sentences (`doing`: "opened", "saved", "read" or "deleted"): the
// storage full, the database held by another tab, or else (`reason`: the browser's words).
const FAILED = {
  opened: {
    full: () => t("This device's storage is full: the game could not be opened. Free some space (or delete finished games) and try again."),
    held: () => t("The games on this device could not be opened: close the other tabs of this app and try again."),
    other: () => t("The games on this device could not be opened."),
    said: (reason) => t("The games on this device could not be opened ({reason}).", { reason }),
  },
  saved: {
    full: () => t("This device's storage is full: the game could not be saved. Free some space (or delete finished games) and try again."),
    held: () => t("The games on this device could not be saved: close the other tabs of this app and try again."),
    other: () => t("The games on this device could not be saved."),
    said: (reason) => t("The games on this device could not be saved ({reason}).", { reason }),
  },
  read: {
    full: () => t("This device's storage is full: the game could not be read. Free some space (or delete finished games) and try again."),
    held: () => t("The games on this device could not be read: close the other tabs of this app and try again."),
    other: () => t("The games on this device could not be read."),
    said: (reason) => t("The games on this device could not be read ({reason}).", { reason }),
  },
  deleted: {
    full: () => t("This device's storage is full: the game could not be deleted. Free some space (or delete finished games) and try again."),
    held: () => t("The games on this device could not be deleted: close the other tabs of this app and try again."),
    other: () => t("The games on this device could not be deleted."),
    said: (reason) => t("The games on this device could not be deleted ({reason}).", { reason }),
  },
};

function failure(doing, error) {
  const name = error && error.name;
  const said = FAILED[doing];
  if (name === "QuotaExceededError") return new Error(said.full());
  if (name === "VersionError" || name === "InvalidStateError") return new Error(said.held());
  return new Error(error && error.message ? said.said(error.message) : said.other());
}

function database() {
  if (!globalThis.indexedDB) return Promise.resolve(null);
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      let request;
      try { request = globalThis.indexedDB.open(DATABASE, VERSION); } catch (error) { reject(failure("opened", error)); return; }
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: "id" });
      };
      request.onblocked = () => reject(new Error(t("The games on this device are held by an older tab of this app: close it and try again.")));
      request.onerror = () => reject(failure("opened", request.error));
      request.onsuccess = () => {
        const db = request.result;
        db.onversionchange = () => { db.close(); opened = null; };
        resolve(db);
      };
    });
    opened.catch(() => { opened = null; });  // tried again next time
  }
  return opened;
}

// One request in a transaction of its own; resolves with its result once committed.
async function transact(mode, doing, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    let result;
    let tx;
    try {
      tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      request.onsuccess = () => { result = request.result; };
    } catch (error) { reject(failure(doing, error)); return; }
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(failure(doing, tx.error));
    tx.onabort = () => reject(failure(doing, tx.error));
  });
}

/** Whether `record` is a whole table record; a message saying what is wrong if not. */
export function recordProblem(record) {
  // Translators: what is wrong with a game kept on the device, said in "The game ... is damaged (...)"
  if (!record || typeof record !== "object" || Array.isArray(record)) return t("it is not a record");
  if (typeof record.id !== "string" || !ID.test(record.id)) return t("its id is not a device table's");
  if (record.version !== RECORD_VERSION) return t("its format ({format}) is not this app's", { format: JSON.stringify(record.version) });
  if (typeof record.rules !== "string" || !record.ruleSet || typeof record.ruleSet !== "object") return t("its rules are missing");
  if (!Array.isArray(record.seats) || record.seats.length < 1 || record.seats.length > 8) return t("its players are missing");
  for (const seat of record.seats) {
    if (!seat || typeof seat.name !== "string" || (seat.bot !== null && typeof seat.bot !== "string")) return t("a player is damaged");
    if (seat.bot === null && typeof seat.token !== "string") return t("a player's key is missing");
  }
  if (!Array.isArray(record.events) || !record.events.length || !record.events[0] || record.events[0].type !== "start") return t("its moves are missing");
  if (!record.tray || typeof record.tray.slots !== "string" || !Array.isArray(record.tray.held)) return t("its dice are missing");
  if (typeof record.updated !== "number") return t("its date is missing");
  return null;
}

export const RECORD_FORMAT = RECORD_VERSION;

function checked(record, id) {
  const problem = recordProblem(record);
  if (problem) throw new Error(t("The game {id} on this device is damaged ({reason}): it cannot be played on.", { id, reason: problem }));
  return record;
}

/** Keep `record` (a table's whole record, replacing the one kept). */
export async function saveTable(record) {
  checked(record, record && record.id);
  if (!(await database())) { memory.set(record.id, structuredClone(record)); return; }
  await transact("readwrite", "saved", (store) => store.put(record));
}

/** The record of table `id`, or null when this device has none. */
export async function loadTable(id) {
  const record = (await database()) ? await transact("readonly", "read", (store) => store.get(id)) : structuredClone(memory.get(id));
  return record === undefined || record === null ? null : checked(record, id);
}

/** Every record kept, newest first; damaged ones are left out and reported in `damaged`. */
export async function listTables() {
  const all = (await database()) ? await transact("readonly", "read", (store) => store.getAll()) : [...memory.values()].map((r) => structuredClone(r));
  const tables = [];
  const damaged = [];
  for (const record of all) {
    if (recordProblem(record)) damaged.push(record && typeof record.id === "string" ? record.id : "?");
    else tables.push(record);
  }
  tables.sort((a, b) => b.updated - a.updated);
  tables.damaged = damaged;
  return tables;
}

/** Forget table `id` on this device. */
export async function deleteTable(id) {
  if (!(await database())) { memory.delete(id); return; }
  await transact("readwrite", "deleted", (store) => store.delete(id));
}
