/**
 * The chart the README shows: one bar per goal, the measured ratio against n8n's generic node
 * (or against the goal itself for activation), with the 1.0x goal line. Written as SVG, then
 * rendered to PNG by Debian's chromium through playwright-core (nothing is downloaded). Without
 * chromium the SVG is still written and the PNG skipped with a note.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CHROMIUM, CHROMIUM_ARGS } from '../../harness/services';

export interface Bar {
	label: string;
	/** Measured / goal, normalised so that at most 1.0 meets the goal (lower is better). */
	value: number;
	low: number;
	high: number;
	note: string;
}

const escape = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function chartSvg(title: string, subtitle: string, bars: Bar[]): string {
	const width = 1000;
	const rowHeight = 46;
	const left = 330;
	const right = 170;
	const top = 86;
	const height = top + bars.length * rowHeight + 60;
	const maxValue = Math.max(2, ...bars.map((bar) => bar.high));
	const x = (value: number) =>
		left + (Math.min(value, maxValue) / maxValue) * (width - left - right);
	const rows = bars
		.map((bar, index) => {
			const y = top + index * rowHeight;
			const met = bar.value <= 1;
			const colour = met ? '#2e8540' : '#c0392b';
			return `
  <text x="${left - 10}" y="${y + 22}" text-anchor="end" font-size="14">${escape(bar.label)}</text>
  <rect x="${left}" y="${y + 8}" width="${Math.max(1, x(bar.value) - left)}" height="22" fill="${colour}" opacity="0.85"/>
  <line x1="${x(bar.low)}" x2="${x(bar.high)}" y1="${y + 19}" y2="${y + 19}" stroke="#222" stroke-width="1.5"/>
  <line x1="${x(bar.low)}" x2="${x(bar.low)}" y1="${y + 13}" y2="${y + 25}" stroke="#222"/>
  <line x1="${x(bar.high)}" x2="${x(bar.high)}" y1="${y + 13}" y2="${y + 25}" stroke="#222"/>
  <text x="${x(Math.max(bar.value, bar.high)) + 8}" y="${y + 23}" font-size="13">${escape(`${bar.value.toFixed(2)}x ${bar.note}`)}</text>`;
		})
		.join('');
	const ticks = [0, 0.5, 1, 1.5, 2, 3, 4]
		.filter((tick) => tick <= maxValue)
		.map(
			(tick) =>
				`<line x1="${x(tick)}" x2="${x(tick)}" y1="${top}" y2="${height - 50}" stroke="${tick === 1 ? '#000' : '#ddd'}" stroke-width="${tick === 1 ? 2 : 1}" ${tick === 1 ? 'stroke-dasharray="6 4"' : ''}/>
  <text x="${x(tick)}" y="${height - 32}" text-anchor="middle" font-size="12">${tick}x</text>`,
		)
		.join('\n  ');
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans, Arial, sans-serif">
  <rect width="100%" height="100%" fill="#fff"/>
  <text x="20" y="32" font-size="20" font-weight="bold">${escape(title)}</text>
  <text x="20" y="58" font-size="13" fill="#444">${escape(subtitle)}</text>
  ${ticks}
  ${rows}
  <text x="${x(1) + 6}" y="${top - 6}" font-size="12">goal 1.0x (green: met)</text>
  <text x="20" y="${height - 10}" font-size="12" fill="#444">Bars: median; whiskers: min-max over runs. Lower is better; throughput bars are inverted (generic / package).</text>
</svg>
`;
}

/** Renders the SVG to a PNG with Debian's chromium; false (and nothing written) without it. */
export async function renderPng(svg: string, pngPath: string): Promise<boolean> {
	if (!existsSync(CHROMIUM)) return false;
	const { chromium } = await import('playwright-core');
	const profile = mkdtempSync(join(tmpdir(), 'trio-bench-chromium-'));
	try {
		const context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM,
			headless: true,
			args: CHROMIUM_ARGS,
		});
		try {
			const page = await context.newPage();
			const size = /width="(\d+)" height="(\d+)"/.exec(svg);
			await page.setViewportSize({
				width: Number(size?.[1] ?? 1000),
				height: Number(size?.[2] ?? 600),
			});
			await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
			writeFileSync(pngPath, await page.screenshot({ type: 'png' }));
		} finally {
			await context.close();
		}
		return true;
	} finally {
		rmSync(profile, { recursive: true, force: true });
	}
}
