// Every screen of `vorpal gui` as a person sees it, in both themes, at the four sizes the docs
// show (1400x900 desktop, 1024x700 laptop, 390x844 phone, 844x390 phone on its side): play
// with a clock, analysis with three lines, and the game report. Each is kept as a screenshot in
// $SCREENSHOT_DIR/screens/ (looked at; the docs' pictures come from here), and every visible
// text must be readable: WCAG's contrast ratio against what is behind it, at least 4.5 (3 for
// large text). The controls that are not buttons (moves in the list, moves of the engine's
// lines, rows of the report) are keyboard-reachable: Tab reaches them and Enter acts.

import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { guiFixture } from './launch.mjs';
import { ready, clickMove, moveCount, closePage, openSetup } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = join(process.env.SCREENSHOT_DIR || '/tmp', 'screens');
const BLUNDER = readFileSync(new URL('../../docs/examples/blunder.pgn', import.meta.url), 'utf8');
const SIZES = [[1400, 900], [1024, 700], [390, 844], [844, 390]];
const test = (name, fn) => nodeTest(name, { timeout: 300000 }, fn);

const fixture = guiFixture(BIN, SHOTS);

async function openPage(theme) {
  const context = await fixture.browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: theme, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(fixture.server.url);
  await ready(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
  return page;
}

/** Texts of the page whose contrast with what is behind them is below WCAG AA, with the ratio. */
function lowContrast(page) {
  return page.evaluate(() => {
    const parse = (text) => {
      const m = /rgba?\(([^)]+)\)/.exec(text);
      if (!m) return null;
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
    };
    const over = (top, under) => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    });
    const luminance = ({ r, g, b }) => {
      const f = (v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const behind = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0) {
          layers.push(c);
          if (c.a >= 1) break;
        }
      }
      let colour = { r: 255, g: 255, b: 255, a: 1 };
      for (let i = layers.length - 1; i >= 0; i--) colour = over(layers[i], colour);
      return colour;
    };
    const bad = [];
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('svg, [hidden], :disabled, option')) continue;
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      let opacity = 1;
      for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      if (opacity === 0) continue;
      const back = behind(el);
      const ink = parse(style.color);
      const fore = over({ ...ink, a: ink.a * opacity }, back);
      const [hi, lo] = [luminance(fore), luminance(back)].sort((x, y) => y - x);
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
      if (ratio < (large ? 3 : 4.5)) {
        bad.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} "${el.textContent.trim().slice(0, 24)}" ${ratio.toFixed(2)}`);
      }
    }
    return bad;
  });
}

/** Screenshots of the page at every size, each checked for contrast. */
async function everySize(page, theme, screen) {
  const problems = [];
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, `${screen}-${theme}-${width}x${height}.png`) });
    for (const p of await lowContrast(page)) problems.push(`${screen} ${theme} ${width}x${height}: ${p}`);
    if (await page.locator('#restart').isVisible()) problems.push(`${screen} ${theme}: an engine failed: ${await page.textContent('#status')}`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  return problems;
}

for (const theme of ['light', 'dark']) {
  test(`every screen is readable in the ${theme} theme at four sizes`, async () => {
    const page = await openPage(theme);
    const problems = [];
    // Play against the engine at 5+3: a move each, the clocks running.
    await page.selectOption('#mode', 'play');
    await page.click('#newgame');
    await clickMove(page, ['A', 'e2'], ['B', 'e4']);
    await moveCount(page, 2);
    problems.push(...await everySize(page, theme, 'play'));
    // Analysis with three lines (the setup folded away when the game began).
    await openSetup(page);
    await page.selectOption('#mode', 'analysis');
    await page.selectOption('#multipv', '3');
    await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3, null, { timeout: 30000 });
    problems.push(...await everySize(page, theme, 'analysis'));
    // The game report of an imported game.
    await page.selectOption('#mode', 'human');
    await page.fill('#pgn', BLUNDER);
    await page.click('#importpgn');
    await moveCount(page, 17);
    await page.click('#reviewbtn');
    await page.waitForSelector('#review .eval-graph', { timeout: 120000 });
    problems.push(...await everySize(page, theme, 'review'));
    assert.deepEqual(problems, []);
    await closePage(page);
  });
}

test('moves in the list and in the engine lines, and the report rows, act from the keyboard', async () => {
  const page = await openPage('light');
  await page.selectOption('#mode', 'human');
  await page.fill('#pgn', BLUNDER);
  await page.click('#importpgn');
  await moveCount(page, 17);
  // Enter on the third move of the list shows it.
  const third = page.locator('#moves .move').nth(2);
  await third.focus();
  await page.keyboard.press('Enter');
  const id = await third.getAttribute('data-node');
  await page.waitForFunction((n) => document.querySelector('#moves .move.current')?.dataset.node === n, id);
  // Enter on the second move of the first engine line plays the line up to it.
  await page.selectOption('#mode', 'analysis');
  const second = page.locator('#lines .line').first().locator('.pv-move').nth(1);
  await second.waitFor({ timeout: 30000 });
  await second.focus();
  // The lines are redrawn as the analysis deepens: the focus stays on the same move.
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.key), 'pv:0:1');
  await page.keyboard.press('Enter');
  // The third move is ply 3: the line's second move is ply 5, shown.
  await page.waitForFunction(() => document.querySelector('#moves .move.current')?.dataset.ply === '5');
  // Every move span, line move and report row is a focusable button.
  const unreachable = await page.evaluate(() => [...document.querySelectorAll('#moves .move, #lines .pv-move, #review .mistake-row')]
    .filter((e) => e.tabIndex < 0 || e.getAttribute('role') !== 'button').length);
  assert.equal(unreachable, 0);
  await closePage(page);
});

