// What the browser test and the browser measurements share: the page's
// server (web/serve.mjs, with the cross-origin isolation headers), Debian's
// headless Chromium driven by puppeteer-core (installed by
// web/test/browser.sh into target/web-test/npm; it downloads no browser),
// and the CPU time of Chromium's processes.

import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serve } from '../serve.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const NPM_DIR = process.env.JJ_WEB_NPM ?? `${ROOT}target/web-test/npm`;
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const OUT_DIR = `${ROOT}target/web-test`;

/** Serve web/ and start Chromium; `close()` ends both. */
export async function start() {
  const require = createRequire(`${NPM_DIR}/package.json`);
  const puppeteer = require('puppeteer-core');
  const server = await serve(0);
  const base = `http://127.0.0.1:${server.address().port}`;
  // The same files without the isolation headers.
  const plain = await serve(0, '127.0.0.1', { isolate: false });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    defaultViewport: { width: 1200, height: 960 },
  });
  return {
    base,
    plainBase: `http://127.0.0.1:${plain.address().port}`,
    browser,
    async close() {
      await browser.close();
      server.close();
      plain.close();
    },
  };
}

/** The CPU seconds (user + system) used so far by `pid` and its descendants. */
export function treeCpuSeconds(pid) {
  const hz = 100; // USER_HZ: clock ticks per second on Linux
  const parent = new Map();
  const ticks = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  for (const [p, t] of ticks) {
    for (let q = p; q; q = parent.get(q)) {
      if (q === pid) {
        total += t;
        break;
      }
    }
  }
  return total / hz;
}

/** The load average over the last minute. */
export function loadAverage() {
  return readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
}
