// Salto's board page. It draws what the server sends (layout, pieces,
// legal moves, search reports) and sends clicks back; it knows no rules.
'use strict';

const U = 100; // one cell, in SVG user units
const SVGNS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

let games = null;     // /api/games
let state = null;     // the last state from the server
let info = null;      // the last search report
let selected = null;  // the square of the piece the user picked
let pdnText = null;   // the PDN file being watched
let autoplay = null;
let lines = [];       // the analysis' lines (multipv), best first
let clockAt = 0;      // when the state with the clocks arrived (performance.now())

// ---------- server ----------

async function api(path, body) {
  const init = body === undefined ? { method: 'GET' }
    : { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) };
  const r = await fetch(path, init);
  const text = await r.text();
  if (!r.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error; } catch (e) { /* plain text */ }
    showError(msg);
    throw new Error(msg);
  }
  hideError();
  const type = r.headers.get('Content-Type') || '';
  return type.startsWith('application/json') ? JSON.parse(text) : text;
}

function showError(msg) { const e = $('error'); e.textContent = msg; e.hidden = false; }
function hideError() { $('error').hidden = true; }

function listen() {
  const es = new EventSource('/api/events');
  es.addEventListener('state', (ev) => setState(JSON.parse(ev.data)));
  es.addEventListener('info', (ev) => {
    const d = JSON.parse(ev.data);
    const k = d.info.multipv || 1;
    if (k <= 1) { info = d.info; lines = [d.info]; } else if (k - 1 <= lines.length) { lines[k - 1] = d.info; }
    showInfo(d.kind);
    showLines();
    drawBoard();
  });
  es.addEventListener('review', (ev) => {
    const d = JSON.parse(ev.data);
    if (state && state.review) { state.review.done = d.done; state.review.total = d.total; showReview(); }
  });
  es.addEventListener('error', (ev) => {
    if (ev.data) showError(JSON.parse(ev.data).error);
  });
}

// ---------- state ----------

function setState(s) {
  // Answers and events may cross: keep the newest.
  if (state && s.version < state.version) return;
  const sameGame = state && state.variant === s.variant && state.players === s.players;
  const samePos = state && state.fen === s.fen && state.ply === s.ply;
  state = s;
  clockAt = performance.now();
  info = s.info;
  lines = s.lines || [];
  if (!samePos) selected = null;
  if (!sameGame) { syncForm(); }
  syncSeats();
  drawBoard();
  showStatus();
  showInfo(s.searching);
  showMoves();
  showLines();
  showReview();
  showClocks();
  $('analyse').checked = s.analysing;
  if (document.activeElement !== $('multipv')) $('multipv').value = String(s.multipv || 1);
  $('pass').hidden = !humanToMove() || !s.legal.some((m) => m.text === 'pass');
  if (s.games) showWatchGames(s.games, s.game);
  showTags();
  document.body.dataset.ply = s.ply;
  document.body.dataset.version = s.version;
  document.body.dataset.searching = s.searching || '';
}

function humanToMove() {
  if (!state || state.result) return false;
  const seat = state.seats[state.to_move];
  return !(seat && seat.engine);
}

function playerName(p) { return state.layout.players[p] ? state.layout.players[p].name : 'Player ' + (p + 1); }

function showStatus() {
  let text;
  if (state.result) {
    const r = state.result;
    text = (r.winner === null || r.winner === undefined ? 'Draw' : playerName(r.winner) + ' wins') + ' (' + r.reason + ')';
  } else {
    text = playerName(state.to_move) + ' to move';
    if (state.searching === 'play') text += ' (engine thinking)';
  }
  $('status').textContent = text;
  $('status').dataset.result = state.result ? 'over' : '';
}

function showInfo(kind) {
  const el = $('info-text');
  if (!info) { el.textContent = state && state.searching ? 'searching...' : 'no search'; return; }
  const pv = info.pv.map((m) => m.text).join(' ');
  el.textContent = (kind === 'play' ? 'engine: ' : kind === 'analyse' ? 'analysis: ' : '') +
    'depth ' + info.depth + '  score ' + info.score + '  nodes ' + info.nodes +
    '  nps ' + info.nps + '  time ' + info.time.toFixed(1) + 's\npv ' + pv;
}

function clockText(t) {
  if (t >= 60) {
    const m = Math.floor(t / 60), sec = Math.floor(t - 60 * m);
    return m + ':' + String(sec).padStart(2, '0');
  }
  return t.toFixed(1);
}

// The clocks run on the page between states: the time left at the state,
// less the time since for the player to move.
function showClocks() {
  const box = $('clocks');
  const c = state && state.clock;
  box.hidden = !c;
  if (!c) return;
  box.textContent = '';
  const since = (performance.now() - clockAt) / 1000;
  c.left.forEach((left, p) => {
    const t = Math.max(0, c.running === p ? left - c.elapsed - since : left);
    const d = document.createElement('span');
    d.className = 'clock' + (c.running === p ? ' running' : '') + (c.flag === p ? ' flagged' : '');
    d.dataset.player = p;
    d.textContent = playerName(p).split(' (')[0] + ' ' + clockText(t) + (c.flag === p ? ' \u2691 time' : '');
    box.appendChild(d);
  });
}

function parseClock(text) {
  const t = text.trim();
  if (!t) return null;
  const [b, i] = t.split('+');
  return { base: Number(b), inc: i ? Number(i) : 0 };
}

function showLines() {
  const box = $('lines');
  box.textContent = '';
  if (!state || !state.searching || lines.length < 2) return;
  for (const l of lines) {
    const li = document.createElement('li');
    li.className = 'line';
    li.textContent = l.score + '  ' + l.pv.map((m) => m.text).join(' ');
    li.title = 'depth ' + l.depth;
    box.appendChild(li);
  }
}

// The review point of each ply, when the game analysis is done.
function reviewPoints() {
  const r = state && state.review;
  return r && !r.running && r.points.length ? r.points : null;
}

function showReview() {
  const r = state.review;
  const bar = $('review-progress');
  bar.hidden = !(r && r.running);
  $('review-cancel').hidden = !(r && r.running);
  $('review').disabled = !!(r && r.running) || state.line.length === 0;
  if (r && r.running) { bar.max = r.total; bar.value = r.done; }
  drawGraph();
  const pts = reviewPoints();
  const note = $('review-note');
  note.textContent = '';
  if (!pts) { if (r && r.running) note.textContent = 'analysing: ' + r.done + ' of ' + r.total + ' positions'; return; }
  const p = pts[state.ply];
  if (!p) return;
  let text = 'score ' + p.score.toFixed(2) + ' (depth ' + p.depth + ')';
  if (p.mark) text = state.line[state.ply - 1] + ': ' + p.mark + ', best was ' + p.better + '.  ' + text;
  if (p.best) text += '  best here: ' + p.best;
  note.textContent = text;
}

function drawGraph() {
  const svg = $('graph');
  const pts = reviewPoints();
  svg.hidden = !pts;
  svg.textContent = '';
  if (!pts) return;
  const W = 300, H = 120, M = 6, CAP = 5;
  const n = Math.max(1, pts.length - 1);
  const x = (ply) => M + (W - 2 * M) * ply / n;
  const y = (s) => H / 2 - (H / 2 - M) * Math.max(-CAP, Math.min(CAP, s)) / CAP;
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' }, svg);
  el('polyline', { points: pts.map((p) => x(p.ply).toFixed(1) + ',' + y(p.score).toFixed(1)).join(' '), class: 'curve' }, svg);
  for (const p of pts) {
    const c = el('circle', {
      cx: x(p.ply), cy: y(p.score), r: p.mark ? 4.5 : 3,
      class: 'graph-point' + (p.mark ? ' mark-' + p.mark : '') + (p.ply === state.ply ? ' current' : ''),
      'data-ply': p.ply,
    }, svg);
    const t = el('title', {}, c);
    t.textContent = 'ply ' + p.ply + ': ' + p.score.toFixed(2) + (p.mark ? ' (' + p.mark + ', best ' + p.better + ')' : '');
    c.addEventListener('click', () => step(p.ply));
  }
}

function reviewRequest() {
  const d = $('review-depth').value, t = $('review-time').value;
  return { depth: d ? Number(d) : null, movetime: t ? Number(t) : null };
}

function showMoves() {
  const box = $('movelist');
  box.textContent = '';
  const n = state.layout.players.length;
  let player = state.root_to_move;
  let number = 1;
  state.pdn_line.forEach((mv, i) => {
    if (player === state.first_player || i === 0) {
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = number + (player === state.first_player ? '. ' : '... ');
      box.appendChild(num);
    }
    const span = document.createElement('span');
    span.className = 'mv' + (i + 1 === state.ply ? ' current' : '');
    span.textContent = mv;
    span.dataset.ply = i + 1;
    span.title = state.line[i];
    const pts = reviewPoints();
    const p = pts && pts[i + 1];
    if (p && p.mark) {
      span.classList.add('mark-' + p.mark);
      span.dataset.mark = p.mark;
      span.title = p.mark + ': best was ' + p.better;
    }
    span.onclick = () => api('/api/goto', { ply: i + 1 }).then(setState).catch(() => {});
    box.appendChild(span);
    box.appendChild(document.createTextNode(' '));
    player = (player + 1) % n;
    if (player === state.first_player) number += 1;
  });
  const cur = box.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function showTags() {
  const box = $('tags');
  box.textContent = (state.tags || []).map(([k, v]) => k + ': ' + v).join('\n');
  box.style.whiteSpace = 'pre-wrap';
}

// ---------- the form ----------

function variantInfo(name) { return games.variants.find((v) => v.name === name); }

function fillVariants() {
  const sel = $('variant');
  sel.textContent = '';
  for (const v of games.variants) {
    const o = document.createElement('option');
    o.value = o.textContent = v.name;
    sel.appendChild(o);
  }
}

function syncForm() {
  if (!games || !state) return;
  $('variant').value = state.variant;
  buildGameOptions();
  $('players').value = String(state.players);
  $('sets').value = String(state.sets);
  buildSeats(state.layout.players.length);
}

function buildGameOptions() {
  const v = variantInfo($('variant').value);
  const psel = $('players');
  const keep = psel.value;
  psel.textContent = '';
  for (const p of v.players) {
    const o = document.createElement('option');
    o.value = o.textContent = String(p);
    psel.appendChild(o);
  }
  if (v.players.map(String).includes(keep)) psel.value = keep;
  $('players-label').hidden = v.players.length < 2;
  $('sets-label').hidden = !v.sets;
  const box = $('options');
  box.textContent = '';
  for (const opt of v.options) {
    const label = document.createElement('label');
    label.textContent = opt.name + ' ';
    let input;
    if (opt.values) {
      input = document.createElement('select');
      for (const val of opt.values) {
        const o = document.createElement('option');
        o.value = o.textContent = val;
        input.appendChild(o);
      }
    } else {
      input = document.createElement('input');
      input.type = 'number';
      input.min = 0;
      input.value = opt.number;
      input.className = 'option-number';
    }
    input.dataset.option = opt.name;
    label.appendChild(input);
    box.appendChild(label);
  }
}

function formPlayers() {
  const v = variantInfo($('variant').value);
  return v.players.length > 1 ? Number($('players').value) : 2;
}

function buildSeats(n) {
  const box = $('seats');
  box.textContent = '';
  for (let p = 0; p < n; p++) {
    const row = document.createElement('div');
    row.className = 'seat';
    row.dataset.seat = p;
    const useState = state && state.layout.players.length === n && $('variant').value === state.variant;
    const pl = useState ? state.layout.players[p] : null;
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = pl ? pl.color : '#ccc';
    const name = document.createElement('span');
    name.textContent = pl ? pl.name.split(' (')[0] : 'Player ' + (p + 1);
    const kind = document.createElement('select');
    kind.className = 'seat-kind';
    // Salto, or another Hub engine of `salto gui --engine`.
    for (const k of ['human', 'engine'].concat((games.engines || []).map((n) => 'engine:' + n))) {
      const o = document.createElement('option');
      o.value = k;
      o.textContent = k === 'engine' ? 'salto' : k.startsWith('engine:') ? k.slice(7) : k;
      kind.appendChild(o);
    }
    const depth = document.createElement('input');
    depth.type = 'number'; depth.min = 1; depth.max = 60; depth.placeholder = 'depth';
    depth.className = 'seat-depth'; depth.title = 'engine depth limit (plies)';
    const time = document.createElement('input');
    time.type = 'number'; time.min = 0.1; time.step = 0.1; time.placeholder = 's/move';
    time.className = 'seat-time'; time.title = 'engine seconds per move';
    time.value = '1';
    const seat = useState ? state.seats[p] : null;
    if (seat) {
      kind.value = seatKind(seat);
      depth.value = seat.depth || '';
      time.value = seat.movetime || (seat.depth ? '' : '1');
    } else if (p === 1) {
      kind.value = 'engine';
    }
    for (const el of [kind, depth, time]) el.onchange = seatsChanged;
    row.append(sw, name, kind, depth, time);
    box.appendChild(row);
  }
}

function syncSeats() {
  // Keep the seat rows in step with the table when it is the form's game.
  const rows = $('seats').querySelectorAll('.seat');
  if (rows.length !== state.seats.length || $('variant').value !== state.variant) return;
  rows.forEach((row, p) => {
    const seat = state.seats[p];
    if (document.activeElement && row.contains(document.activeElement)) return;
    row.querySelector('.seat-kind').value = seatKind(seat);
    row.querySelector('.seat-depth').value = seat.depth || '';
    row.querySelector('.seat-time').value = seat.movetime || '';
  });
}

function seatKind(seat) {
  if (!seat.engine) return 'human';
  return seat.external ? 'engine:' + seat.external : 'engine';
}

function readSeats() {
  return Array.from($('seats').querySelectorAll('.seat')).map((row) => {
    const d = row.querySelector('.seat-depth').value;
    const t = row.querySelector('.seat-time').value;
    const kind = row.querySelector('.seat-kind').value;
    const seat = {
      engine: kind !== 'human',
      depth: d ? Number(d) : null,
      movetime: t ? Number(t) : null,
    };
    if (kind.startsWith('engine:')) seat.external = kind.slice(7);
    return seat;
  });
}

function seatsChanged() {
  if ($('variant').value === state.variant && formPlayers() === state.layout.players.length) {
    api('/api/seats', { seats: readSeats() }).then(setState).catch(() => {});
  }
}

function newGameRequest() {
  const options = {};
  for (const input of $('options').querySelectorAll('[data-option]')) options[input.dataset.option] = input.value;
  const v = variantInfo($('variant').value);
  const req = { variant: v.name, options, seats: readSeats() };
  const clock = parseClock($('clock').value);
  if (clock) req.clock = clock;
  if (v.players.length > 1) req.players = Number($('players').value);
  if (v.sets) req.sets = Number($('sets').value);
  return req;
}

// ---------- the board ----------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The cells where they are drawn: as the server places them, or turned by
// half a turn when the board is flipped (Black / the last player below).
let viewCells = [];
function placeCells() {
  const L = state.layout;
  if (!$('flip').checked) { viewCells = L.cells; return; }
  const h = Math.sqrt(3) / 2;
  const [mx, my] = L.kind === 'hex' ? [10, 10 * h] : L.kind === 'star' ? [16, 16 * h]
    : [L.files - 1, L.ranks - 1];
  viewCells = L.cells.map((c) => Object.assign({}, c, { x: mx - c.x, y: my - c.y }));
}

function cellOf(n) { return viewCells[n - 1]; }
function centre(n) {
  const c = cellOf(n);
  const sq = state.layout.kind === 'diagonal' || state.layout.kind === 'orthogonal';
  return sq ? [(c.x + 0.5) * U, (c.y + 0.5) * U] : [c.x * U, c.y * U];
}

function pieceRadius() {
  return { diagonal: 0.4, orthogonal: 0.4, hex: 0.38, star: 0.36 }[state.layout.kind] * U;
}

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 90);
    pts.push((cx + r * Math.cos(a)).toFixed(1) + ',' + (cy + r * Math.sin(a)).toFixed(1));
  }
  return pts.join(' ');
}

function drawBackground(svg) {
  const L = Object.assign({}, state.layout, { cells: viewCells });
  const flip = $('flip').checked;
  const showNumbers = $('numbers').checked;
  if (L.kind === 'diagonal' || L.kind === 'orthogonal') {
    const m = 0.35 * U;
    svg.setAttribute('viewBox', `${-m} ${-m} ${L.files * U + 2 * m} ${L.ranks * U + 2 * m}`);
    el('rect', { x: -m, y: -m, width: L.files * U + 2 * m, height: L.ranks * U + 2 * m, fill: '#3b3024' }, svg);
    for (let y = 0; y < L.ranks; y++) {
      for (let x = 0; x < L.files; x++) {
        // The bottom-left square (a1) is dark on every board Salto plays.
        const dark = (x + (L.ranks - 1 - y)) % 2 === 0;
        el('rect', { x: x * U, y: y * U, width: U, height: U, class: dark ? 'sq-dark' : 'sq-light' }, svg);
      }
      const rank = el('text', { x: -m / 2, y: (y + 0.58) * U, class: 'coord' }, svg);
      rank.textContent = L.cells[0].name ? String(flip ? y + 1 : L.ranks - y) : '';
    }
    if (L.cells[0].name) {
      for (let x = 0; x < L.files; x++) {
        const f = el('text', { x: (x + 0.5) * U, y: L.ranks * U + m * 0.75, class: 'coord' }, svg);
        f.textContent = String.fromCharCode(97 + (flip ? L.files - 1 - x : x));
      }
    }
    if (showNumbers) {
      for (const c of L.cells) {
        const dark = (c.x + (L.ranks - 1 - c.y)) % 2 === 0;
        const t = el('text', { x: c.x * U + 4, y: c.y * U + 19, class: dark ? 'sq-num' : 'sq-num on-light' }, svg);
        t.textContent = c.n;
      }
    }
  } else if (L.kind === 'hex') {
    const r = U / Math.sqrt(3);
    const xs = L.cells.map((c) => c.x), ys = L.cells.map((c) => c.y);
    const x0 = Math.min(...xs) * U - U, y0 = Math.min(...ys) * U - U;
    const w = (Math.max(...xs) - Math.min(...xs)) * U + 2 * U, h = (Math.max(...ys) - Math.min(...ys)) * U + 2 * U;
    svg.setAttribute('viewBox', `${x0} ${y0} ${w} ${h}`);
    for (const c of L.cells) {
      const row = Math.round(c.y / (Math.sqrt(3) / 2)) - 5;
      const q = Math.round(c.x - row / 2 - 5);
      const alt = (((q - row) % 3) + 3) % 3;
      el('polygon', { points: hexPoints(c.x * U, c.y * U, r), class: 'cell-hex' + (alt ? ' alt' + alt : '') }, svg);
      if (showNumbers) {
        const t = el('text', { x: c.x * U, y: c.y * U + 0.42 * U, class: 'hex-num' }, svg);
        t.textContent = c.n;
      }
    }
  } else {
    const h = Math.sqrt(3) / 2;
    const px = (q, r) => [(q + r / 2 + 8) * U, (r + 8) * h * U];
    const ax = [[4, -8], [4, -4], [8, -4], [4, 0], [4, 4], [0, 4], [-4, 8], [-4, 4], [-8, 4], [-4, 0], [-4, -4], [0, -4]];
    const [cx, cy] = px(0, 0);
    const pts = ax.map(([q, r]) => {
      const [x, y] = px(q, r);
      const k = 1 + 0.75 / Math.hypot(q + r / 2, r * h);
      return (cx + (x - cx) * k).toFixed(1) + ',' + (cy + (y - cy) * k).toFixed(1);
    });
    svg.setAttribute('viewBox', `${-1.2 * U} ${-1.0 * U} ${18.4 * U} ${16 * h * U + 2 * U}`);
    el('polygon', { points: pts.join(' '), class: 'star-bg' }, svg);
    for (const c of L.cells) {
      el('circle', { cx: c.x * U, cy: c.y * U, r: 0.16 * U, class: 'hole' }, svg);
      if (showNumbers) {
        const t = el('text', { x: c.x * U, y: c.y * U + 0.47 * U, class: 'hole-num' }, svg);
        t.textContent = c.n;
      }
    }
  }
}

function mark(svg, n, cls) {
  const [x, y] = centre(n);
  const sq = state.layout.kind === 'diagonal' || state.layout.kind === 'orthogonal';
  if (cls === 'last' && sq) {
    el('rect', { x: x - U / 2, y: y - U / 2, width: U, height: U, class: cls }, svg);
  } else if (cls === 'target') {
    el('circle', { cx: x, cy: y, r: 0.15 * U, class: cls }, svg);
  } else {
    el('circle', { cx: x, cy: y, r: cls === 'last' ? 0.46 * U : pieceRadius() + 0.04 * U, class: cls }, svg);
  }
}

function drawPiece(svg, p) {
  const [x, y] = centre(p.n);
  const r = pieceRadius();
  const g = el('g', {
    class: 'pc', 'data-piece': p.n, 'data-player': p.player === null ? 'x' : p.player,
    'data-king': p.king ? 1 : 0, 'data-color': p.color,
  }, svg);
  el('circle', { cx: x, cy: y, r, fill: p.color, class: 'piece' }, g);
  const dark = p.player === 1 && state.layout.kind !== 'star';
  el('circle', { cx: x, cy: y, r: r * 0.7, class: 'piece-ring', stroke: dark ? '#6b5e55' : '#00000040' }, g);
  if (p.king) {
    const s = r / 40;
    const pts = [[-20, 10], [-22, -12], [-10, -1], [0, -16], [10, -1], [22, -12], [20, 10]]
      .map(([a, b]) => (x + a * s).toFixed(1) + ',' + (y + b * s).toFixed(1)).join(' ');
    el('polygon', { points: pts, fill: '#d4a017', stroke: '#5a4000', 'stroke-width': 2 }, g);
  }
}

function arrow(svg, from, to, cls) {
  const [x1, y1] = centre(from), [x2, y2] = centre(to);
  const d = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / d, uy = (y2 - y1) / d;
  const hx = x2 - ux * 0.22 * U, hy = y2 - uy * 0.22 * U;
  el('line', { x1, y1, x2: hx, y2: hy, class: 'arrow ' + cls }, svg);
  const w = 0.16 * U;
  const pts = [[x2, y2], [hx - uy * w, hy + ux * w], [hx + uy * w, hy - ux * w]]
    .map(([a, b]) => a.toFixed(1) + ',' + b.toFixed(1)).join(' ');
  const fill = { later: '#2a9d8f', alt: '#8e6cc0' }[cls] || '#1d5fd1';
  el('polygon', { points: pts, class: 'arrow ' + cls, style: 'fill: ' + fill }, svg);
}

function drawBoard() {
  if (!state) return;
  const svg = $('board');
  svg.textContent = '';
  svg.dataset.kind = state.layout.kind;
  svg.dataset.variant = state.variant;
  placeCells();
  drawBackground(svg);
  if (state.last && state.last.from) {
    mark(svg, state.last.from, 'last');
    mark(svg, state.last.to, 'last');
  }
  for (const p of state.pieces) drawPiece(svg, p);
  const human = humanToMove() && state.searching !== 'play';
  if (human) {
    const froms = new Set(state.legal.filter((m) => m.from).map((m) => m.from));
    for (const n of froms) if (n !== selected) mark(svg, n, 'movable');
    if (selected) {
      mark(svg, selected, 'selected');
      const tos = new Set(state.legal.filter((m) => m.from === selected).map((m) => m.to));
      for (const n of tos) mark(svg, n, 'target');
    }
  }
  if ($('arrows').checked && info && info.pv && state.searching) {
    // The other lines' first moves under the best line.
    lines.slice(1).forEach((l) => {
      const m = l.pv[0];
      if (m && m.from && m.to) arrow(svg, m.from, m.to, 'alt');
    });
    info.pv.slice(0, 4).forEach((m, i) => {
      if (m.from && m.to) arrow(svg, m.from, m.to, i === 0 ? 'first' : 'later');
    });
  }
  // Click targets on top of everything.
  const r = state.layout.kind === 'star' ? 0.48 * U : 0.5 * U;
  for (const c of viewCells) {
    const [x, y] = centre(c.n);
    const hit = state.layout.kind === 'hex' || state.layout.kind === 'star'
      ? el('circle', { cx: x, cy: y, r, class: 'hit' }, svg)
      : el('rect', { x: x - U / 2, y: y - U / 2, width: U, height: U, class: 'hit' }, svg);
    hit.setAttribute('data-cell', c.n);
    hit.addEventListener('click', () => clicked(c.n));
  }
}

// ---------- moves ----------

function clicked(n) {
  if (!humanToMove() || state.searching === 'play') return;
  hideRoutes();
  if (selected) {
    const moves = state.legal.filter((m) => m.from === selected && m.to === n);
    if (moves.length === 1) { play(moves[0].text); return; }
    if (moves.length > 1) { chooseRoute(moves); return; }
  }
  if (state.legal.some((m) => m.from === n)) {
    selected = selected === n ? null : n;
  } else {
    selected = null;
  }
  drawBoard();
}

function play(text) {
  selected = null;
  hideRoutes();
  api('/api/move', { move: text }).then(setState).catch(() => drawBoard());
}

function chooseRoute(moves) {
  const box = $('routes');
  box.textContent = 'Which capture?';
  for (const m of moves) {
    const b = document.createElement('button');
    b.textContent = m.text + '  (takes ' + m.captured.join(', ') + ')';
    b.dataset.route = m.text;
    b.onmouseenter = () => { drawBoard(); for (const c of m.captured) mark($('board'), c, 'captured-mark'); };
    b.onclick = () => play(m.text);
    box.appendChild(b);
  }
  const cancel = document.createElement('button');
  cancel.textContent = 'cancel';
  cancel.onclick = () => { hideRoutes(); drawBoard(); };
  box.appendChild(cancel);
  box.hidden = false;
}

function hideRoutes() { $('routes').hidden = true; }

// ---------- watch ----------

function showWatchGames(titles, current) {
  const sel = $('pdn-game');
  sel.textContent = '';
  titles.forEach((t, i) => {
    const o = document.createElement('option');
    o.value = i + 1;
    o.textContent = t;
    sel.appendChild(o);
  });
  sel.value = current;
  sel.hidden = titles.length < 2;
}

function loadPdn(game) {
  return api('/api/watch?game=' + game, pdnText).then(setState);
}

function step(ply) {
  if (!state) return Promise.resolve();
  const to = Math.max(0, Math.min(state.line.length, ply));
  return api('/api/goto', { ply: to }).then(setState).catch(() => {});
}

function stopAutoplay() {
  if (autoplay) { clearInterval(autoplay); autoplay = null; $('autoplay').textContent = 'Play'; }
}

// ---------- wiring ----------

function copyText(text) {
  $('position').value = text;
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

function wire() {
  for (const t of document.querySelectorAll('.tab')) {
    t.onclick = () => {
      for (const o of document.querySelectorAll('.tab')) o.classList.toggle('active', o === t);
      $('panel-play').hidden = t.dataset.tab !== 'play';
      $('panel-watch').hidden = t.dataset.tab !== 'watch';
    };
  }
  $('variant').onchange = () => { buildGameOptions(); buildSeats(formPlayers()); };
  $('players').onchange = () => buildSeats(formPlayers());
  $('new-game').onclick = () => api('/api/new', newGameRequest()).then(setState).catch(() => {});
  $('undo').onclick = () => api('/api/undo', {}).then(setState).catch(() => {});
  $('stop').onclick = () => api('/api/stop', {}).then(setState).catch(() => {});
  $('pass').onclick = () => play('pass');
  $('analyse').onchange = () => api('/api/analyse', { on: $('analyse').checked }).then(setState).catch(() => {});
  $('arrows').onchange = drawBoard;
  $('multipv').onchange = () => api('/api/analyse', { on: $('analyse').checked, multipv: Number($('multipv').value) }).then(setState).catch(() => {});
  $('review').onclick = () => api('/api/review', reviewRequest()).then(setState).catch(() => {});
  $('review-cancel').onclick = () => api('/api/review', { cancel: true }).then(setState).catch(() => {});
  $('numbers').onchange = drawBoard;
  $('flip').onchange = drawBoard;
  $('set-position').onclick = () => api('/api/position', { fen: $('position').value }).then(setState).catch(() => {});
  $('copy-fen').onclick = () => copyText(state.fen);
  $('copy-pdn').onclick = () => api('/api/pdn').then(copyText).catch(() => {});
  $('pdn-file').onchange = () => {
    const f = $('pdn-file').files[0];
    if (!f) return;
    f.text().then((t) => { pdnText = t; return loadPdn(1); }).catch(() => {});
  };
  $('pdn-game').onchange = () => loadPdn($('pdn-game').value).catch(() => {});
  $('first').onclick = () => { stopAutoplay(); step(0); };
  $('prev').onclick = () => { stopAutoplay(); step(state.ply - 1); };
  $('next').onclick = () => { stopAutoplay(); step(state.ply + 1); };
  $('last').onclick = () => { stopAutoplay(); step(state.line.length); };
  $('autoplay').onclick = () => {
    if (autoplay) { stopAutoplay(); return; }
    $('autoplay').textContent = 'Pause';
    autoplay = setInterval(() => {
      if (state.ply >= state.line.length) stopAutoplay(); else step(state.ply + 1);
    }, 700);
  };
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'TEXTAREA' || e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowLeft') step(state.ply - 1);
    if (e.key === 'ArrowRight') step(state.ply + 1);
  });
}

async function main() {
  wire();
  games = await api('/api/games');
  fillVariants();
  setState(await api('/api/state'));
  listen();
  setInterval(showClocks, 100);
  document.body.dataset.ready = '1';
}

main().catch((e) => showError(String(e)));
