// The dashboard (docs/dashboard.md). Plain browser JavaScript, no build step.
//
//   paste a key ─> sessionStorage ─> REST: /v1/quotes, /v1/orders, /v1/positions, /v1/analytics/tca/*
//                                 └> GET /v1/ws/ticket ─> /v1/stream?ticket= ─> prices:<symbol>, orders, fills, tca
//
// The key is sent only as a bearer header to this origin, never in a URL (the WebSocket gets a
// single-use ticket). Chart.js is the global `Chart` (its UMD build, loaded before this module).
// Every value from the API is written with textContent, never parsed as HTML.

const KEY_STORAGE = 'dashboard.api_key';
const DEFAULT_SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'SOL-USDT'];
const SYMBOL_PATTERN = /^[A-Z0-9]{1,20}-[A-Z0-9]{1,20}$/;
const BLOTTER_ROWS = 50;
/** Per-venue tops come from REST (the prices channel carries the NBBO only). */
const QUOTE_POLL_MS = 1_000;
/** A venue quote older than this is drawn faded. */
const STALE_MS = 5_000;
/** Fills and TCA frames arrive in bursts: one refresh of positions / analytics per burst. */
const POSITIONS_DEBOUNCE_MS = 600;
const TCA_DEBOUNCE_MS = 1_200;
const RECONNECT_MAX_MS = 15_000;
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

const COLORS = { text: '#e4e9f0', muted: '#8691a1', line: '#242b36', accent: '#4c9dff', bid: '#2fbf71', ask: '#f0575b', warn: '#e2a93b' };

/** `?symbols=BTC-USDT,ETH-USDT` picks the market cards (no key ever goes in the URL). */
function symbolsFromUrl() {
  const raw = new URLSearchParams(location.search).get('symbols');
  const list = (raw ?? '').split(',').map((s) => s.trim().toUpperCase()).filter((s) => SYMBOL_PATTERN.test(s));
  return list.length > 0 ? [...new Set(list)].slice(0, 6) : DEFAULT_SYMBOLS;
}

const symbols = symbolsFromUrl();

const state = {
  key: null,
  /** Bumped on connect and sign-out: answers of an older session are dropped. */
  session: 0,
  orders: new Map(),
  flash: new Set(),
  ws: null,
  wsAttempt: 0,
  wsOpened: 0,
  frames: 0,
  timers: { quotes: 0, positions: 0, tca: 0, reconnect: 0, render: 0 },
  charts: null,
  /** The venues chart's rows, for its tooltip. */
  venueRows: [],
  /** Which refresh the notice reports a failure of, if any. */
  noticeSource: null,
};

// ---------------------------------------------------------------------------------------------
// Formatting

const $ = (selector) => document.querySelector(selector);

function fixed(value, digits) {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const fmt = {
  price(v) {
    if (v == null || !Number.isFinite(v)) return '—';
    const a = Math.abs(v);
    return fixed(v, a >= 1_000 ? 2 : a >= 1 ? 4 : 6);
  },
  qty(v) {
    if (v == null || !Number.isFinite(v)) return '—';
    const a = Math.abs(v);
    return fixed(v, a >= 1_000 ? 2 : a >= 1 ? 4 : 6);
  },
  usd(v) {
    if (v == null || !Number.isFinite(v)) return '—';
    const a = Math.abs(v);
    if (a >= 1e9) return `${fixed(v / 1e9, 2)}B`;
    if (a >= 1e6) return `${fixed(v / 1e6, 2)}M`;
    return fixed(v, 2);
  },
  bps(v) {
    return v == null || !Number.isFinite(v) ? '—' : fixed(v, 2);
  },
  signedBps(v) {
    return v == null || !Number.isFinite(v) ? '—' : `${v > 0 ? '+' : ''}${fixed(v, 2)}`;
  },
  pct(v) {
    return v == null || !Number.isFinite(v) ? '—' : `${fixed(v * 100, 1)}%`;
  },
  timeNs(ns) {
    if (ns == null) return '—';
    return new Date(ns / 1e6).toISOString().slice(11, 19);
  },
  bucket(iso, interval) {
    const d = new Date(iso);
    const day = iso.slice(5, 10);
    return interval === '1d' ? day : `${day} ${String(d.getUTCHours()).padStart(2, '0')}:00`;
  },
};

/** An element with a class and text: the only way values reach the page. */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cell(text, className) {
  return el('td', className, text);
}

/** A cost (shortfall) is red when positive; a gain (PnL, savings) is green when positive. */
const costClass = (v) => (v == null ? '' : v > 0 ? 'neg' : v < 0 ? 'pos' : '');
const gainClass = (v) => (v == null ? '' : costClass(-v));

function showEmpty(name, empty) {
  const node = document.querySelector(`[data-empty-for="${name}"]`);
  if (node) node.hidden = !empty;
}

/** The one notice line; `source` names the panel whose failure it reports, so its next success clears it. */
function notice(message, kind = 'error', source = null) {
  state.noticeSource = source;
  const node = $('#notice');
  node.hidden = message === null;
  node.className = `notice ${kind === 'info' ? 'info' : ''}`;
  node.textContent = message ?? '';
}

// ---------------------------------------------------------------------------------------------
// The API

class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code ?? null;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * GET with the pasted key. A 429 is retried once after its Retry-After; a 401 signs out.
 * Amounts past 2^53 (a sandbox account's balances in _1e8) lose digits in JSON.parse: the page
 * only displays them, rounded far above that.
 */
async function api(path, retried = false) {
  const session = state.session;
  const res = await fetch(path, { headers: { authorization: `Bearer ${state.key}` }, cache: 'no-store' });
  if (session !== state.session) throw new ApiError(0, null);
  if (res.status === 429 && !retried) {
    await sleep(Math.min(Number(res.headers.get('retry-after')) || 1, 10) * 1_000);
    return api(path, true);
  }
  const text = await res.text();
  const body = text === '' ? null : JSON.parse(text);
  if (!res.ok) {
    const err = new ApiError(res.status, body);
    if (res.status === 401) signOut(`The key was refused: ${err.message}.`);
    throw err;
  }
  return body;
}

/** Runs a refresh; an error other than a refused key or a dropped session becomes the notice. */
async function guarded(what, task) {
  try {
    await task();
    if (state.noticeSource === what) notice(null);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 0 || err.status === 401)) return;
    notice(`${what}: ${err.message}`, 'error', what);
  }
}

// ---------------------------------------------------------------------------------------------
// Market overview

function buildMarket() {
  const root = $('#market');
  root.replaceChildren();
  for (const symbol of symbols) {
    const card = el('article', 'panel quote');
    card.dataset.symbol = symbol;
    const head = el('header');
    head.append(el('h3', '', symbol), el('span', 'mid', '—'), el('span', 'spread', ''));
    const nbbo = el('div', 'nbbo');
    for (const side of ['bid', 'ask']) {
      const box = el('div', `${side}-box`);
      box.append(el('label', '', side === 'bid' ? 'Bid' : 'Ask'), el('b', side, '—'), el('small', `${side}-size`, ''));
      nbbo.append(box);
    }
    const table = el('table', 'grid-table venues');
    const tr = el('tr');
    for (const [label, num] of [['Venue', false], ['Bid size', true], ['Bid', true], ['Ask', true], ['Ask size', true], ['Age', true]]) {
      tr.append(el('th', num ? 'num' : '', label));
    }
    table.append(el('thead'), el('tbody'));
    table.tHead.append(tr);
    card.append(head, nbbo, table);
    root.append(card);
  }
}

function card(symbol) {
  return document.querySelector(`.quote[data-symbol="${symbol}"]`);
}

/** The consolidated best bid and offer, from REST (bid_size) or the prices channel (bid_sz). */
function renderNbbo(symbol, nbbo) {
  const node = card(symbol);
  if (!node || !nbbo) return;
  node.querySelector('.mid').textContent = fmt.price(nbbo.mid);
  node.querySelector('.spread').textContent = nbbo.spread_bps == null ? '' : `${fmt.bps(nbbo.spread_bps)} bps`;
  node.querySelector('b.bid').textContent = fmt.price(nbbo.bid);
  node.querySelector('b.ask').textContent = fmt.price(nbbo.ask);
  node.querySelector('.bid-size').textContent = fmt.qty(nbbo.bid_size ?? nbbo.bid_sz);
  node.querySelector('.ask-size').textContent = fmt.qty(nbbo.ask_size ?? nbbo.ask_sz);
}

function renderVenues(symbol, venues) {
  const node = card(symbol);
  if (!node) return;
  const rows = Object.entries(venues ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const bestBid = Math.max(...rows.map(([, q]) => q.bid ?? -Infinity));
  const bestAsk = Math.min(...rows.map(([, q]) => q.ask ?? Infinity));
  const body = node.querySelector('tbody');
  body.replaceChildren(
    ...rows.map(([venue, q]) => {
      const tr = el('tr', q.age_ms > STALE_MS ? 'stale' : '');
      tr.dataset.venue = venue;
      tr.append(
        cell(venue),
        cell(fmt.qty(q.bid_size), 'num muted'),
        cell(fmt.price(q.bid), `num bid${q.bid === bestBid ? ' best' : ''}`),
        cell(fmt.price(q.ask), `num ask${q.ask === bestAsk ? ' best' : ''}`),
        cell(fmt.qty(q.ask_size), 'num muted'),
        cell(q.age_ms == null ? '—' : `${q.age_ms} ms`, 'num muted'),
      );
      return tr;
    }),
  );
}

async function refreshQuotes() {
  const body = await api(`/v1/quotes?symbols=${symbols.map(encodeURIComponent).join(',')}`);
  for (const q of body.quotes) {
    renderNbbo(q.symbol, q.nbbo);
    renderVenues(q.symbol, q.venues);
  }
}

function pollQuotes(session) {
  clearTimeout(state.timers.quotes);
  if (session !== state.session) return;
  const next = () => (state.timers.quotes = setTimeout(() => pollQuotes(session), QUOTE_POLL_MS));
  if (document.hidden) return next();
  guarded('Quotes', refreshQuotes).finally(next);
}

// ---------------------------------------------------------------------------------------------
// Orders

function upsertOrder(order, flash) {
  const previous = state.orders.get(order.node_order_id);
  state.orders.set(order.node_order_id, { ...previous, ...order, tca: order.tca ?? previous?.tca ?? null });
  if (flash) state.flash.add(order.node_order_id);
  scheduleRender();
}

function statusClass(status) {
  if (status === 'COMPLETED') return 'completed';
  if (status === 'REJECTED' || status === 'UNRESOLVED') return 'rejected';
  if (status === 'CANCELLED') return 'cancelled';
  return 'working';
}

function renderBlotter() {
  const orders = [...state.orders.values()].sort((a, b) => b.created_unix_ns - a.created_unix_ns);
  // The map keeps what is shown and a little more; older orders are in GET /v1/orders.
  for (const old of orders.slice(BLOTTER_ROWS * 2)) state.orders.delete(old.node_order_id);
  const shown = orders.slice(0, BLOTTER_ROWS);
  $('#blotter tbody').replaceChildren(
    ...shown.map((o) => {
      const tr = el('tr', state.flash.has(o.node_order_id) ? 'flash' : '');
      tr.dataset.orderId = o.node_order_id;
      const venues = [...new Set((o.children ?? []).map((c) => c.venue))].join(', ');
      const shortfall = o.tca?.implementation_shortfall_bps ?? null;
      const status = el('span', `status-tag ${statusClass(o.status)}`, o.status);
      const statusCell = cell('');
      statusCell.append(status);
      tr.append(
        cell(fmt.timeNs(o.created_unix_ns), 'mono muted'),
        cell(o.node_order_id, 'id'),
        cell(o.client_order_id ?? '', 'mono'),
        cell(o.symbol),
        cell(o.side.toUpperCase(), o.side === 'buy' ? 'bid' : 'ask'),
        cell(fmt.qty(o.qty_1e8 / 1e8), 'num'),
        cell(fmt.qty(o.filled_qty_1e8 / 1e8), 'num'),
        cell(o.tca ? fmt.price(o.tca.achieved_vwap_1e9 / 1e9) : '—', 'num'),
        statusCell,
        cell(venues || '—', 'muted'),
        cell(fmt.signedBps(shortfall), `num ${costClass(shortfall)}`),
        cell(String(o.routing_version ?? '—'), 'num muted'),
      );
      return tr;
    }),
  );
  state.flash.clear();
  $('#orders-count').textContent = shown.length === 0 ? '' : `${shown.length} latest`;
  showEmpty('blotter', shown.length === 0);
}

async function refreshOrders() {
  const body = await api(`/v1/orders?limit=${BLOTTER_ROWS}`);
  for (const o of body.orders) upsertOrder(o, false);
  setMode(body.orders[0]?.is_sandbox);
  renderBlotter();
}

// ---------------------------------------------------------------------------------------------
// Positions

function assetName(instrument) {
  switch (instrument.kind) {
    case 'fiat':
      return instrument.code;
    case 'perp':
      return `${instrument.symbol} perp`;
    case 'event_contract':
      return `${instrument.market_slug} ${instrument.outcome}`;
    default:
      return instrument.symbol ?? instrument.kind;
  }
}

function renderPositions(view) {
  const t = view.totals;
  kpis('#position-totals', [
    ['NAV', fmt.usd(t.nav_usd_1e9 / 1e9)],
    ['Cash', fmt.usd(t.cash_usd_1e9 / 1e9)],
    ['Unrealized', fmt.usd(t.unrealized_pnl_usd_1e9 / 1e9), gainClass(t.unrealized_pnl_usd_1e9)],
    ['Realized', fmt.usd(t.realized_pnl_usd_1e9 / 1e9), gainClass(t.realized_pnl_usd_1e9)],
    ['Fees', fmt.usd(t.fees_usd_1e9 / 1e9)],
  ]);
  const rows = view.positions
    .filter((p) => p.qty_1e8 !== 0)
    .sort((a, b) => Math.abs(b.current_value_usd_1e9) - Math.abs(a.current_value_usd_1e9) || a.venue.localeCompare(b.venue));
  $('#positions tbody').replaceChildren(
    ...rows.map((p) => {
      const tr = el('tr');
      tr.dataset.asset = assetName(p.instrument);
      tr.dataset.venue = p.venue;
      const pnl = p.unrealized_pnl_usd_1e9 / 1e9;
      tr.append(
        cell(assetName(p.instrument)),
        cell(p.venue, 'muted'),
        cell(fmt.qty(p.qty_1e8 / 1e8), `num ${p.qty_1e8 < 0 ? 'neg' : ''}`),
        cell(p.current_price_usd_1e9 == null ? '—' : fmt.price(p.current_price_usd_1e9 / 1e9), 'num muted'),
        cell(fmt.usd(p.current_value_usd_1e9 / 1e9), 'num'),
        cell(fmt.usd(pnl), `num ${gainClass(pnl)}`),
      );
      return tr;
    }),
  );
  $('#positions-count').textContent = rows.length === 0 ? '' : `${rows.length}`;
  showEmpty('positions', rows.length === 0);
}

async function refreshPositions() {
  renderPositions(await api('/v1/positions'));
}

// ---------------------------------------------------------------------------------------------
// TCA

function kpis(selector, items) {
  $(selector).replaceChildren(
    ...items.map(([label, value, className]) => {
      const box = el('div');
      box.append(el('dt', '', label), el('dd', className ?? '', value));
      return box;
    }),
  );
}

function baseOptions(yTitle) {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'index', intersect: false },
    plugins: { legend: { position: 'bottom', labels: { usePointStyle: true, pointStyleWidth: 14, boxHeight: 8 } } },
    scales: {
      x: { grid: { display: false } },
      y: { title: { display: true, text: yTitle }, grid: { color: COLORS.line } },
    },
  };
}

function createCharts() {
  const { Chart } = window;
  Chart.defaults.color = COLORS.muted;
  Chart.defaults.borderColor = COLORS.line;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.font.size = 11;

  const timeseriesOptions = baseOptions('bps');
  timeseriesOptions.scales.orders = { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, ticks: { precision: 0 }, title: { display: true, text: 'orders' } };
  const timeseries = new Chart($('#chart-timeseries'), {
    type: 'bar',
    data: {
      labels: [],
      datasets: [
        { type: 'line', label: 'Avg shortfall', data: [], borderColor: COLORS.accent, backgroundColor: COLORS.accent, pointRadius: 3, tension: 0.25, order: 1 },
        { type: 'line', label: 'p95', data: [], borderColor: COLORS.warn, backgroundColor: COLORS.warn, borderDash: [4, 3], pointRadius: 2, tension: 0.25, order: 2 },
        { type: 'bar', label: 'Orders', data: [], yAxisID: 'orders', backgroundColor: 'rgba(134, 145, 161, 0.22)', maxBarThickness: 36, pointStyle: 'rect', order: 3 },
      ],
    },
    options: timeseriesOptions,
  });

  // Shortfall only: fees (often 10 bps) would flatten it; they are in the tooltip and the headline.
  const venueOptions = baseOptions('bps');
  venueOptions.plugins.legend.display = false;
  venueOptions.plugins.tooltip = {
    callbacks: {
      label: (ctx) => {
        const v = state.venueRows[ctx.dataIndex];
        return v ? [`shortfall ${fmt.signedBps(v.avg_implementation_shortfall_bps)} bps`, `fees ${fmt.bps(v.avg_fee_bps)} bps`, `${v.orders} orders, ${fmt.pct(v.share_of_notional)} of notional`] : '';
      },
    },
  };
  const venues = new Chart($('#chart-venues'), {
    type: 'bar',
    data: { labels: [], datasets: [{ label: 'Shortfall', data: [], backgroundColor: [], borderRadius: 2, maxBarThickness: 48 }] },
    options: venueOptions,
  });

  const versionOptions = baseOptions('bps');
  versionOptions.plugins.tooltip = {
    callbacks: {
      label: (ctx) => {
        const v = ctx.raw;
        if (Array.isArray(v)) return `95% interval: ${fmt.signedBps(v[0])} to ${fmt.signedBps(v[1])}`;
        return `${ctx.dataset.label}: ${fmt.signedBps(v)}`;
      },
    },
  };
  const versions = new Chart($('#chart-versions'), {
    type: 'bar',
    data: {
      labels: [],
      datasets: [
        // Drawn over the mean's bar at the same x (grouped: false): an error bar.
        { label: '95% interval', data: [], grouped: false, barThickness: 3, backgroundColor: 'rgba(228, 233, 240, 0.75)', pointStyle: 'rect', order: 1 },
        { label: 'Mean shortfall', data: [], grouped: false, maxBarThickness: 56, backgroundColor: 'rgba(76, 157, 255, 0.55)', borderColor: COLORS.accent, borderWidth: 1, borderRadius: 2, pointStyle: 'rect', order: 2 },
      ],
    },
    options: versionOptions,
  });
  return { timeseries, venues, versions };
}

function renderTca(summary, timeseries, venues, versions) {
  const t = summary.tca;
  $('#tca-window').textContent = `${summary.since.slice(0, 10)} → ${summary.until.slice(0, 10)} UTC${summary.is_sandbox ? ' · sandbox' : ''}`;
  kpis('#tca-kpis', [
    ['Orders', String(t.orders)],
    ['Notional (USD)', fmt.usd(t.notional_usd_1e9 / 1e9)],
    ['Avg shortfall', `${fmt.signedBps(t.avg_implementation_shortfall_bps)} bps`, costClass(t.avg_implementation_shortfall_bps)],
    ['p95 shortfall', `${fmt.signedBps(t.shortfall_percentiles_bps.p95)} bps`],
    ['Avg fees', `${fmt.bps(t.avg_fee_bps)} bps`],
    ['Savings vs best venue', `${fmt.signedBps(t.avg_savings_bps)} bps`, gainClass(t.avg_savings_bps)],
    ['Win rate', fmt.pct(t.win_rate)],
    ['Total savings (USD)', fmt.usd(t.total_savings_usd_1e9 / 1e9)],
  ]);
  setMode(summary.is_sandbox);

  const { charts } = state;
  const ts = charts.timeseries;
  ts.data.labels = timeseries.points.map((p) => fmt.bucket(p.start, timeseries.interval));
  ts.data.datasets[0].data = timeseries.points.map((p) => p.avg_implementation_shortfall_bps);
  ts.data.datasets[1].data = timeseries.points.map((p) => p.shortfall_percentiles_bps.p95);
  ts.data.datasets[2].data = timeseries.points.map((p) => p.orders);
  ts.update('none');
  showEmpty('chart-timeseries', timeseries.points.length === 0);

  const vc = charts.venues;
  state.venueRows = venues.venues;
  vc.data.labels = venues.venues.map((v) => `${v.venue} · ${fmt.pct(v.share_of_notional)}`);
  vc.data.datasets[0].data = venues.venues.map((v) => v.avg_implementation_shortfall_bps);
  vc.data.datasets[0].backgroundColor = venues.venues.map((v) => ((v.avg_implementation_shortfall_bps ?? 0) > 0 ? 'rgba(240, 87, 91, 0.75)' : 'rgba(47, 191, 113, 0.75)'));
  vc.update('none');
  showEmpty('chart-venues', venues.venues.length === 0);

  const vv = charts.versions;
  const z = 1.959964;
  vv.data.labels = versions.versions.map((v) => `v${v.routing_version} · ${v.orders} orders`);
  vv.data.datasets[0].data = versions.versions.map((v) =>
    v.mean_shortfall_bps == null || v.standard_error_bps == null ? null : [v.mean_shortfall_bps - z * v.standard_error_bps, v.mean_shortfall_bps + z * v.standard_error_bps],
  );
  // One order has a mean (its own shortfall) but no interval: the API gives both from two orders.
  vv.data.datasets[1].data = versions.versions.map((v) => v.mean_shortfall_bps ?? v.avg_implementation_shortfall_bps);
  vv.update('none');
  showEmpty('chart-versions', versions.versions.every((v) => v.orders === 0));
  $('#version-comparisons').replaceChildren(
    ...versions.comparisons
      .filter((c) => c.difference_bps !== null)
      .map((c) => {
        const ci = c.ci95_bps;
        const text = `v${c.routing_version} − v${c.baseline_version}: ${fmt.signedBps(c.difference_bps)} bps [${fmt.signedBps(ci.low)}, ${fmt.signedBps(ci.high)}] ${c.significant ? 'significant' : 'not significant'}`;
        return el('li', c.significant ? 'sig' : '', text);
      }),
  );
}

async function refreshTca() {
  const interval = $('#interval').value;
  const [summary, timeseries, venues, versions] = await Promise.all([
    api('/v1/analytics/tca'),
    api(`/v1/analytics/tca/timeseries?interval=${interval}`),
    api('/v1/analytics/tca/venues'),
    api('/v1/analytics/tca/versions'),
  ]);
  renderTca(summary, timeseries, venues, versions);
}

// ---------------------------------------------------------------------------------------------
// Live: /v1/stream

function setWs(mode, title) {
  const pill = $('#ws-state');
  pill.className = `pill ${mode}`;
  pill.dataset.state = mode;
  pill.textContent = mode === 'live' ? 'stream live' : mode === 'connecting' ? 'connecting' : 'stream off';
  pill.title = title ?? 'The /v1/stream WebSocket';
}

function setMode(isSandbox) {
  if (isSandbox === undefined) return;
  const badge = $('#mode');
  badge.textContent = isSandbox ? 'sandbox' : 'live';
  badge.className = `badge ${isSandbox ? 'sandbox' : 'live'}`;
}

function debounce(name, ms, task) {
  clearTimeout(state.timers[name]);
  state.timers[name] = setTimeout(task, ms);
}

function scheduleRender() {
  if (state.timers.render) return;
  state.timers.render = requestAnimationFrame(() => {
    state.timers.render = 0;
    renderBlotter();
  });
}

function onFrame(frame) {
  if (frame.type === 'subscribed') {
    state.wsOpened++;
    state.wsAttempt = 0;
    setWs('live', `subscribed: ${frame.channels.join(', ')}`);
    // A reconnect missed what happened meanwhile: read it again.
    if (state.wsOpened > 1) refreshAll();
    return;
  }
  if (frame.type === 'error') {
    notice(`Stream: ${frame.error?.message ?? 'error'}`);
    return;
  }
  if (frame.type !== 'data') return;
  state.frames++;
  $('#ws-state').dataset.frames = String(state.frames);
  const { channel, data } = frame;
  if (channel.startsWith('prices:')) {
    renderNbbo(channel.slice('prices:'.length), data);
  } else if (channel === 'orders') {
    upsertOrder(data, true);
    setMode(data.is_sandbox);
    if (TERMINAL.has(data.status)) debounce('positions', POSITIONS_DEBOUNCE_MS, () => guarded('Positions', refreshPositions));
  } else if (channel === 'fills') {
    debounce('positions', POSITIONS_DEBOUNCE_MS, () => guarded('Positions', refreshPositions));
  } else if (channel === 'tca') {
    const order = state.orders.get(data.node_order_id);
    if (order) upsertOrder({ ...order, tca: data.tca }, false);
    debounce('tca', TCA_DEBOUNCE_MS, () => guarded('TCA', refreshTca));
  }
}

async function openStream(session) {
  if (session !== state.session) return;
  setWs('connecting');
  let ticket;
  try {
    ticket = (await api('/v1/ws/ticket')).ticket;
  } catch (err) {
    if (!(err instanceof ApiError && (err.status === 0 || err.status === 401))) reconnectLater(session);
    return;
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${scheme}//${location.host}/v1/stream?ticket=${encodeURIComponent(ticket)}`);
  state.ws = ws;
  ws.addEventListener('open', () => {
    ws.send(JSON.stringify({ subscribe: [...symbols.map((s) => `prices:${s}`), 'orders', 'fills', 'tca'] }));
  });
  ws.addEventListener('message', (event) => onFrame(JSON.parse(event.data)));
  ws.addEventListener('close', (event) => {
    if (state.ws !== ws) return;
    state.ws = null;
    setWs('off', `closed: ${event.code} ${event.reason}`);
    // 4401: the key was revoked (or a JWT expired); reconnecting would only be refused.
    if (event.code === 4401) signOut(`The stream ended: ${event.reason || 'credential no longer valid'}.`);
    else reconnectLater(session);
  });
}

function reconnectLater(session) {
  if (session !== state.session) return;
  const delay = Math.min(RECONNECT_MAX_MS, 1_000 * 2 ** state.wsAttempt++);
  clearTimeout(state.timers.reconnect);
  state.timers.reconnect = setTimeout(() => openStream(session), delay);
}

// ---------------------------------------------------------------------------------------------
// Session

function refreshAll() {
  return Promise.all([
    guarded('Quotes', refreshQuotes),
    guarded('Orders', refreshOrders),
    guarded('Positions', refreshPositions),
    guarded('TCA', refreshTca),
  ]);
}

async function connect(key) {
  signOut(null);
  state.key = key;
  state.session++;
  sessionStorage.setItem(KEY_STORAGE, key);
  document.body.dataset.state = 'signed-in';
  $('#key').value = '';
  $('#key').placeholder = `Key ${key.slice(0, 9)}…${key.slice(-4)} in use (this tab only)`;
  notice(null);
  const session = state.session;
  await refreshAll();
  if (session !== state.session) return;
  document.body.dataset.loaded = 'true';
  pollQuotes(session);
  openStream(session);
}

/** Forgets the key and everything read with it; `message` says why, when it was not asked for. */
function signOut(message) {
  state.session++;
  state.key = null;
  sessionStorage.removeItem(KEY_STORAGE);
  for (const name of ['quotes', 'positions', 'tca', 'reconnect']) clearTimeout(state.timers[name]);
  const ws = state.ws;
  state.ws = null;
  ws?.close(1000, 'signed out');
  state.orders.clear();
  clearView();
  state.frames = 0;
  state.wsOpened = 0;
  state.wsAttempt = 0;
  setWs('off');
  document.body.dataset.state = 'signed-out';
  delete document.body.dataset.loaded;
  $('#key').placeholder = 'Paste an API key (sqk_live_… or sqk_test_…)';
  $('#mode').textContent = 'no key';
  $('#mode').className = 'badge';
  if (message !== null) notice(message);
}

/** Empties every panel: nothing read with a key stays on the page once it is forgotten. */
function clearView() {
  buildMarket();
  renderBlotter();
  $('#positions tbody').replaceChildren();
  $('#positions-count').textContent = '';
  showEmpty('positions', true);
  for (const selector of ['#position-totals', '#tca-kpis', '#version-comparisons']) $(selector).replaceChildren();
  $('#tca-window').textContent = '';
  for (const [name, chart] of Object.entries(state.charts ?? {})) {
    chart.data.labels = [];
    for (const dataset of chart.data.datasets) dataset.data = [];
    chart.update('none');
    showEmpty(`chart-${name}`, true);
  }
}

function tick() {
  $('#clock').textContent = `${new Date().toISOString().slice(11, 19)} UTC`;
}

function start() {
  state.charts = createCharts();
  clearView();
  tick();
  setInterval(tick, 1_000);
  $('#key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = $('#key').value.trim();
    if (key !== '') connect(key);
  });
  $('#forget').addEventListener('click', () => {
    signOut(null);
    notice('The key is forgotten.', 'info');
  });
  $('#interval').addEventListener('change', () => guarded('TCA', refreshTca));
  const saved = sessionStorage.getItem(KEY_STORAGE);
  if (saved) connect(saved);
  else notice('Paste an API key to read your orders, positions and TCA. It is kept in this tab only.', 'info');
}

start();
