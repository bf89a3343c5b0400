// `pnpm check:preview`: the search preview page (docs/preview.md) in a real browser. Builds, starts
// the built search service on an embedded database with the demo catalogue, and drives Debian's
// Chromium through playwright-core: load the page, search as one types, open "why this rank",
// change a filter and a fusion slider, go to the next page, search for what is not there. Each
// step leaves a screenshot in .test-results/preview/; any console error, page error, failed or
// refused request, or request to another origin fails the check. `--docs-screenshot` also writes
// the "why this rank" step to docs/images/preview.png.
import { freePort } from '@rt/testing';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Locator, type Page, type Response } from 'playwright-core';
import { stopService, tail, waitReady, type ServiceChild } from '../common/service-process';
import { startSearch } from './service';

/** The repository, from this file's compiled copy in scripts/preview-check/dist/preview-check. */
const root = join(__dirname, '..', '..', '..', '..');
const resultsDir = join(root, '.test-results', 'preview');
const docsScreenshot = join(root, 'docs', 'images', 'preview.png');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/**
 * Headless, and none of Chromium's own traffic (component updates, sync, safe browsing lists,
 * QUIC probes): the machine reaches no network, and the check counts every request.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const STEP_TIMEOUT_MS = 20_000;
const SEARCH = 'wanderung am see';
const NOTHING = 'zzzzqqqq';

class CheckFailure extends Error {}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

/** Waits until the locator's text matches, failing with what it says instead. */
async function waitForText(locator: Locator, expected: RegExp, what: string): Promise<string> {
  const until = Date.now() + STEP_TIMEOUT_MS;
  let said = 'nothing yet';
  while (Date.now() < until) {
    try {
      const text = ((await locator.textContent({ timeout: 1000 })) ?? '').trim();
      if (expected.test(text)) return text;
      said = `"${text}"`;
    } catch (error) {
      said = error instanceof Error ? error.message : String(error);
    }
    await sleep(100);
  }
  throw new CheckFailure(`${what}: expected ${expected}, the page says ${said}`);
}

/** The next answer of `GET /travels` whose query has every `name=value` given. */
function nextListing(page: Page, params: Record<string, string>): Promise<Response> {
  return page.waitForResponse(
    (response) => {
      const url = new URL(response.url());
      return (
        url.pathname === '/travels' &&
        Object.entries(params).every(([name, value]) => url.searchParams.get(name) === value)
      );
    },
    { timeout: STEP_TIMEOUT_MS },
  );
}

/** Every problem the page shows: console errors, page errors, failed or refused requests, other origins. */
function watchProblems(context: BrowserContext, origin: string): string[] {
  const problems: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`));
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.origin !== origin) {
      problems.push(`request to another origin: ${request.method()} ${request.url()}`);
    }
  });
  context.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`),
  );
  context.on('response', (response) => {
    if (response.status() >= 400) {
      problems.push(`${response.status()} answered to ${response.request().method()} ${response.url()}`);
    }
  });
  return problems;
}

interface Step {
  name: string;
  run: (page: Page) => Promise<string>;
}

const cards = (page: Page) => page.getByRole('article');
/** The results' live status line (the sliders' `<output>`s are status elements too). */
const status = (page: Page) => page.locator('#status');

/** The count a category choice shows (its label's number, as written). */
async function categoryCount(page: Page, label: string): Promise<string> {
  const id = await page.getByRole('checkbox', { name: label }).getAttribute('id');
  return ((await page.locator(`label[for="${id}"] .choice-count`).textContent()) ?? '').trim();
}

const steps: Step[] = [
  {
    name: 'page',
    run: async (page) => {
      await waitForText(
        status(page),
        /^2,000 offers · page 1 of 250 · answered in \d+ ms$/,
        'the first listing',
      );
      check((await cards(page).count()) === 8, 'the first listing shows 8 cards');
      await page.getByRole('checkbox', { name: 'Hiking' }).waitFor({ timeout: STEP_TIMEOUT_MS });
      const destinations = await page.getByLabel('Destination').locator('option').allTextContents();
      check(destinations.length > 1, 'the destinations of the catalogue are offered');
      check(
        destinations.slice(1).every((option) => /· [\d,]+$|more with fewer offers$/.test(option)),
        `each destination shows its count (${destinations.slice(1, 4).join('; ')})`,
      );
      const hiking = await categoryCount(page, 'Hiking');
      return `the unfiltered catalogue, 8 cards, ${destinations.length - 1} destinations and the categories offered from the facets (hiking: ${hiking})`;
    },
  },
  {
    name: 'search',
    run: async (page) => {
      const searchRequests: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/travels' && url.searchParams.has('search')) searchRequests.push(request.url());
      });
      const answered = nextListing(page, { search: SEARCH, explain: 'true' });
      await page.getByLabel('Search the catalogue').pressSequentially(SEARCH, { delay: 40 });
      await answered;
      const said = await waitForText(
        status(page),
        /^[\d,]+ offers · page 1 of [\d,]+ · answered in \d+ ms$/,
        'the search results',
      );
      check((await cards(page).count()) === 8, 'a search shows a page of 8 cards');
      check(
        searchRequests.length < SEARCH.length / 2,
        `typing is debounced: ${searchRequests.length} searches sent for ${SEARCH.length} keys`,
      );
      check(
        (await page.getByRole('button', { name: 'Why this rank?' }).count()) === 8,
        'each card of a search has its "Why this rank?"',
      );
      check(
        await page.getByRole('combobox', { name: 'Order by' }).isDisabled(),
        'the order is off while searching',
      );
      return `"${SEARCH}": ${said}; ${searchRequests.length} request(s) while typing`;
    },
  },
  {
    name: 'why-this-rank',
    run: async (page) => {
      const first = cards(page).first();
      const toggle = first.getByRole('button', { name: 'Why this rank?' });
      await toggle.click();
      check((await toggle.getAttribute('aria-expanded')) === 'true', 'the button says its panel is open');
      const sides = first.getByRole('table', { name: /^Fusion/ });
      await sides.waitFor({ timeout: STEP_TIMEOUT_MS });
      check(
        (await sides.getByRole('row').count()) === 3,
        'the fusion table has the semantic and the text side',
      );
      const terms = first.getByRole('table', { name: /^Text terms/ });
      const rows = terms.locator('tbody tr');
      check((await rows.count()) > 0, 'the first result lists its text terms');
      const kinds = await terms.locator('tbody .kind').allTextContents();
      check(
        kinds.includes('glossary'),
        `the first result of "${SEARCH}" matched through the glossary (kinds: ${kinds.join(', ')})`,
      );
      return `${await rows.count()} terms (${kinds.join(', ')})`;
    },
  },
  {
    name: 'filter',
    run: async (page) => {
      const answered = nextListing(page, { search: SEARCH, category: 'hiking' });
      await page.getByRole('checkbox', { name: 'Hiking' }).check();
      await answered;
      const said = await waitForText(status(page), /^[\d,]+ offers · page 1 of/, 'the filtered results');
      // every offer of the answer is a hiking offer: its count is the total
      const total = said.split(' ')[0];
      const until = Date.now() + STEP_TIMEOUT_MS;
      while ((await categoryCount(page, 'Hiking')) !== total && Date.now() < until) await sleep(100);
      check(
        (await categoryCount(page, 'Hiking')) === total,
        `the hiking choice counts the answer's ${total} offers (it says ${await categoryCount(page, 'Hiking')})`,
      );
      const count = await cards(page).count();
      check(count > 0, 'the hiking filter leaves some offers');
      for (let index = 0; index < count; index++) {
        const categories = await cards(page)
          .nth(index)
          .getByRole('list', { name: 'Categories' })
          .getByRole('listitem')
          .allTextContents();
        check(
          categories.includes('Hiking'),
          `card ${index + 1} is a hiking offer (${categories.join(', ')})`,
        );
      }
      return `category hiking: ${said}`;
    },
  },
  {
    name: 'slider',
    run: async (page) => {
      const slider = page.getByRole('slider', { name: /^Semantic weight/ });
      const answered = nextListing(page, { search: SEARCH, rrfVectorWeight: '0.5' });
      // By keyboard: to the end (1), then 50 steps of 0.01 back.
      await slider.focus();
      await page.keyboard.press('End');
      for (let step = 0; step < 50; step++) await page.keyboard.press('ArrowLeft');
      await answered;
      await waitForText(page.locator('#knob-rrfVectorWeight-value'), /^0\.50$/, 'the slider’s value');
      await waitForText(status(page), /^[\d,]+ offers · page 1 of/, 'the results of the new fusion');
      const first = cards(page).first();
      await first.getByRole('button', { name: 'Why this rank?' }).click();
      const semanticWeight = first
        .getByRole('table', { name: /^Fusion/ })
        .getByRole('row', { name: /^Semantic/ })
        .getByRole('cell')
        .nth(1);
      await waitForText(semanticWeight, /^0\.50$/, 'the semantic side’s weight in the explanation');
      return 'rrfVectorWeight 0.5 by keyboard; the explanation shows the weight 0.50';
    },
  },
  {
    name: 'next-page',
    run: async (page) => {
      const answered = nextListing(page, { search: SEARCH, page: '2' });
      await page.getByRole('button', { name: 'Next page' }).click();
      await answered;
      const said = await waitForText(status(page), /^[\d,]+ offers · page 2 of/, 'the second page');
      await waitForText(
        cards(page).first().getByRole('heading'),
        /^#9 /,
        'the rank of the second page’s first card',
      );
      check(
        await page.getByRole('button', { name: 'Previous page' }).isEnabled(),
        'the second page can go back',
      );
      return said;
    },
  },
  {
    name: 'no-result',
    run: async (page) => {
      const answered = nextListing(page, { search: NOTHING });
      await page.getByLabel('Search the catalogue').fill(NOTHING);
      await answered;
      const said = await waitForText(status(page), /^No offer matches/, 'a search that finds nothing');
      check((await cards(page).count()) === 0, 'no card is shown');
      check(
        await page.getByRole('button', { name: 'Next page' }).isDisabled(),
        'there is no next page to nothing',
      );
      return `"${NOTHING}" with the hiking filter: ${said}`;
    },
  },
];

async function runSteps(
  service: ServiceChild,
  profileDir: string,
  writeDocsScreenshot: boolean,
): Promise<void> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
  });
  try {
    const problems = watchProblems(context, service.base);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${service.base}/preview`);
    for (const [index, step] of steps.entries()) {
      const label = `${index + 1}-${step.name}`;
      const screenshot = join(resultsDir, `${String(index + 1).padStart(2, '0')}-${step.name}.png`);
      try {
        const said = await step.run(page);
        // The answers have settled before the picture (and before the next step).
        await page.waitForLoadState('networkidle');
        await page.evaluate('window.scrollTo(0, 0)');
        await page.screenshot({ path: screenshot });
        if (writeDocsScreenshot && step.name === 'why-this-rank') {
          await mkdir(join(docsScreenshot, '..'), { recursive: true });
          await copyFile(screenshot, docsScreenshot);
        }
        check(problems.length === 0, problems.join('\n'));
        console.log(`[preview] ok ${label}: ${said}`);
      } catch (error) {
        await page.screenshot({ path: screenshot }).catch(() => undefined);
        throw new CheckFailure(
          `${label} failed (screenshot ${screenshot}): ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  // `pnpm check:preview -- --docs-screenshot` may pass the `--` on.
  const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
  const { values } = parseArgs({ args, options: { 'docs-screenshot': { type: 'boolean', default: false } } });
  if (!existsSync(CHROMIUM)) {
    throw new CheckFailure(`no Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium)`);
  }
  await rm(resultsDir, { recursive: true, force: true });
  await mkdir(resultsDir, { recursive: true });
  const scratch = await mkdtemp(join(tmpdir(), 'rt-preview-check-'));
  const logFile = join(resultsDir, 'search.log');
  let service: ServiceChild | undefined;
  const interrupted = () =>
    void (service ? stopService(service) : Promise.resolve()).then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    service = startSearch(root, await freePort(), join(scratch, 'data'), logFile);
    console.log(
      `[preview] search service on ${service.base} (embedded database, demo catalogue; log ${logFile})`,
    );
    await waitReady(service, 180_000, { logTail: true });
    await runSteps(service, join(scratch, 'profile'), values['docs-screenshot'] ?? false);
    console.log(`[preview] all ${steps.length} steps passed (screenshots in ${resultsDir})`);
  } finally {
    if (service) await stopService(service);
    await rm(scratch, { recursive: true, force: true });
  }
  if (service?.exit && service.exit.code !== 0) {
    throw new CheckFailure(
      `the search service stopped with code ${service.exit.code}:\n${await tail(logFile)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(`[preview] FAILED: ${error instanceof CheckFailure ? error.message : String(error)}`);
  if (!(error instanceof CheckFailure) && error instanceof Error && error.stack) console.error(error.stack);
  process.exit(1);
});
