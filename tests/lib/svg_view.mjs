// One SVG flamegraph in headless chromium, used as a person would: it
// loads (script errors and console errors collected), every frame has a
// tooltip and a label fitted to its width, a click zooms into the widest
// frame below the root, Escape resets, a search (the prompt answered)
// marks what matches. Prints what it saw as one JSON line.
import { chromium } from 'playwright-core';

const [file, png, term] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
page.on('dialog', (d) => d.accept(term || 'read'));
await page.goto('file://' + file, { waitUntil: 'load' });

const seen = await page.evaluate(() => {
	const gs = [...document.querySelectorAll('#frames > g')];
	const titles = gs.map((g) => (g.querySelector('title') || {}).textContent || '');
	const labels = gs.map((g) => (g.querySelector('text') || {}).textContent || '');
	return {
		frames: gs.length,
		titles,
		fitted: labels.filter((t) => t.length > 0).length,
		legend: [...document.querySelectorAll('.legend')].map((e) => e.textContent),
		title: document.getElementById('title').textContent,
		subtitle: document.getElementById('subtitle').textContent,
	};
});

// the widest frame below the root, clicked
const target = await page.evaluate(() => {
	const gs = [...document.querySelectorAll('#frames > g')].filter((g) => g.getAttribute('data-d') === '1');
	gs.sort((a, b) => +b.getAttribute('data-w') - +a.getAttribute('data-w'));
	return gs.length ? [...document.querySelectorAll('#frames > g')].indexOf(gs[0]) : -1;
});
seen.zoom = null;
if (target >= 0) {
	const g = page.locator('#frames > g').nth(target);
	await g.click();
	seen.zoom = await page.evaluate((i) => {
		const g = document.querySelectorAll('#frames > g')[i];
		return {
			width: +g.querySelector('rect').getAttribute('width'),
			unzoomShown: !document.getElementById('unzoom').classList.contains('hide'),
		};
	}, target);
	await page.keyboard.press('Escape');
	seen.zoom.afterEscape = await page.evaluate(() => !document.getElementById('unzoom').classList.contains('hide'));
}
await page.locator('#search').click();
seen.matched = await page.evaluate(() => document.getElementById('matched').textContent);
if (png) await page.screenshot({ path: png });
seen.errors = errors;
console.log(JSON.stringify(seen));
await browser.close();
