// The games this device plays without the server (local_table.js), as the page's screens
// reach them: the module is asked for as the page loads, and a screen that needs it waits
// for it. A device table never reaches the server: the screens ask `onDevice(id)` before
// any call of theirs for a table.

import { t } from "./i18n.js";

let tables = null;  // local_table.js once loaded
const loading = import("./local_table.js").then(
  (module) => { tables = module; return module; },
  () => null,  // (a page without it: every table is the server's)
);

/** local_table.js, or an Error in words when this page cannot play on the device. */
export async function localTables() {
  const module = await loading;
  if (!module) throw new Error(t("This page cannot play on the device: reload it and try again."));
  return module;
}

/** Whether table `id` is one of this device's (never the server's). */
export function onDevice(id) {
  if (tables) return tables.isDeviceTable(id);
  return typeof id === "string" && id.startsWith("device-");  // (until the module is in)
}

/** The device's games ([] when it has none or cannot say). */
export async function deviceGamesHere() {
  try { return await (await localTables()).deviceGames(); } catch { return []; }
}
