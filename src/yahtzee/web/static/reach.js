// Whether the server can be reached now: the browser knows it is offline, or the server's
// health check (never answered by the app's worker) does not come back in time.

const WAIT_MS = 4000;

export async function serverReachable() {
  if (!navigator.onLine) return false;
  try {
    const answer = await fetch("/api/health", { cache: "no-store", signal: AbortSignal.timeout(WAIT_MS) });
    return answer.ok;
  } catch {
    return false;
  }
}

/** Whether the browser says it is offline (the online-only parts say "needs a connection"). */
export function offline() { return !navigator.onLine; }
