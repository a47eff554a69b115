// The board's behaviour that htmx does not give us: every post carries the version,
// taps, drag and drop (pointer events), keys, refusals (shake, fly back), share, the win,
// hints, the "Still winnable?" check, the Undo button's state, the guide key and sound.
// htmx sends the posts and swaps the piles the server sends back (out of band).
// Every word shown comes from the page (#board-text), in the player's language.
(function () {
  'use strict';

  const table = document.getElementById('table');
  if (!table || !window.htmx) return;
  document.documentElement.classList.add('js');

  const gameId = table.dataset.gameId;
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  const DRAG_THRESHOLD = 6; // pixels a pointer travels before a press becomes a drag
  const DOUBLE_TAP_MS = 300;

  const byId = (id) => document.getElementById(id);
  const TEXT = JSON.parse((byId('board-text') || {}).textContent || '{}');
  /** A text of the page with its %(name)s placeholders filled in. */
  const say = (key, values) => (TEXT[key] || '').replace(/%\((\w+)\)s/g, (all, name) => (
    values && name in values ? String(values[name]) : all));
  const version = () => (byId('status') ? byId('status').dataset.version : '');
  const pileOf = (el) => (el ? el.closest('.pile') : null);

  // ---- talking to the server ----

  // Every post carries the version the page shows (#status is redrawn with each move);
  // done here because the CSP forbids hx-vals="js:...".
  document.body.addEventListener('htmx:configRequest', (event) => {
    if (event.detail.verb === 'post') event.detail.parameters.version = version();
  });

  // Keep the live regions (summary, message) as the same nodes and change only their text,
  // so screen readers announce the change; a replaced node is often not read.
  document.body.addEventListener('htmx:oobBeforeSwap', (event) => {
    const target = event.detail.target;
    if (target.id !== 'summary' && target.id !== 'message') return;
    event.detail.shouldSwap = false;
    const text = event.detail.fragment.textContent.trim();
    if (target.id === 'summary') {
      target.textContent = text;
    } else {
      answeredWithMessage = true;
      showMessage(text, Boolean(event.detail.fragment.querySelector('.note')));
      const hinted = event.detail.fragment.querySelector('[data-move]');
      if (hinted) showHint(hinted.dataset.move);
    }
  });

  let lastXhr = null;
  let answeredWithMessage = false;
  table.addEventListener('htmx:afterRequest', (event) => { lastXhr = event.detail.xhr; });

  // One action at a time, in order: each post must carry the version its predecessor made.
  let queue = Promise.resolve();

  /** Post an action (`moves`, `undo`, `tap`, `hint`); resolves to the HTTP status. */
  function send(action, values) {
    const run = () => {
      lastXhr = null;
      answeredWithMessage = false;
      const focus = focusMemo();
      const before = reducedMotion.matches ? null : cardPlaces();
      return htmx.ajax('POST', `/games/${gameId}/${action}`, {
        source: table, values: values || {}, swap: 'none',
      }).then(() => lastXhr ? lastXhr.status : 0, () => 0)
        .then((status) => {
          // The action's sound first: a winning move's tune follows it (settle).
          if (action !== 'hint' && status !== 0) sound(actionSound(status, values));
          return settle(status);
        })
        .then((status) => {
          if (status === 200 && before) glide(before, values && values.move === 'draw');
          restoreFocus(focus);
          return status;
        });
    };
    queue = queue.then(run, run);
    return queue;
  }

  function actionSound(status, values) {
    if (status !== 200) return 'refused';
    return values && values.move === 'draw' ? 'draw' : 'move';
  }

  function settle(status) {
    if (status === 409) {
      // Someone (another tab) moved since this page was drawn: show the game as it is.
      window.location.reload();
    } else if (status === 0) {
      showMessage(say('no_answer'));
      sound('refused');
    } else if (status >= 400 && !answeredWithMessage) {
      // A refusal normally carries its reason in the message block; this is the fallback.
      showMessage(status === 404 ? say('gone') : say('refused', { status }));
    } else if (status < 400) {
      if (!answeredWithMessage) hideMessage(); // a hint answers 200 with its message
      afterChange();
    }
    return status;
  }

  // ---- cards glide from where they were to where the server put them ----

  function cardPlaces() {
    const places = new Map();
    table.querySelectorAll('.pile .card').forEach((el) => places.set(el.dataset.card, el.getBoundingClientRect()));
    return places;
  }

  /** Animate every redrawn card from its old place (new waste cards from the stock). */
  function glide(before, drawn) {
    const stock = byId('pile-stock');
    const origin = drawn && stock ? stock.getBoundingClientRect() : null;
    table.querySelectorAll('.pile .card').forEach((el) => {
      const old = before.get(el.dataset.card) || (pileOf(el).id === 'pile-waste' ? origin : null);
      if (!old || !el.animate) return;
      const now = el.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
      el.animate([
        { transform: `translate(${dx}px, ${dy}px)`, zIndex: 50 },
        { transform: 'translate(0, 0)', zIndex: 50 },
      ], { duration: 180, easing: 'cubic-bezier(.2,.8,.3,1)' });
    });
  }

  let messageTimer = 0;
  /** Show a refusal (or, with `note`, a hint) for a few seconds. */
  function showMessage(text, note) {
    const box = byId('message');
    if (!box) return;
    box.textContent = '';
    if (!text) return;
    const p = document.createElement('p');
    p.textContent = text;
    if (note) p.className = 'note';
    box.appendChild(p);
    box.classList.remove('gone');
    clearTimeout(messageTimer);
    messageTimer = setTimeout(hideMessage, note ? 8000 : 5000);
  }

  function hideMessage() {
    const box = byId('message');
    if (box && box.textContent) box.classList.add('gone');
  }

  // ---- what a card or pile means as a move ----

  /** The notation target of a pile (`-f`, `-t2`), or null when nothing can be put there. */
  function targetOf(pile) {
    const name = pile && pile.dataset.pile;
    if (!name) return null;
    if (name.startsWith('f')) return 'f';
    if (name.startsWith('t')) return name;
    return null;
  }

  /** The card and every card on it (a column tail), else just the card. */
  function withCardsOn(card) {
    const cards = [card];
    if (pileOf(card).classList.contains('column')) {
      for (let next = card.nextElementSibling; next; next = next.nextElementSibling) cards.push(next);
    }
    return cards;
  }

  function movable(card) {
    const pile = pileOf(card);
    return pile && (pile.classList.contains('column') || card.tabIndex === 0);
  }

  // ---- taps ----

  let pendingTap = null; // skill: a single tap waits briefly for a possible second tap

  function tap(card) {
    const name = card.dataset.card;
    if (table.dataset.scoring !== 'skill') return send('tap', { card: name }).then((s) => refused(s, [card]));
    if (pendingTap && pendingTap.name === name) {
      clearTimeout(pendingTap.timer);
      pendingTap = null;
      return send('tap', { card: name, double: 'true' }).then((s) => refused(s, [card]));
    }
    if (pendingTap) clearTimeout(pendingTap.timer);
    pendingTap = {
      name,
      timer: setTimeout(() => {
        pendingTap = null;
        send('tap', { card: name }).then((s) => refused(s, [card]));
      }, DOUBLE_TAP_MS),
    };
    return Promise.resolve(0);
  }

  function refused(status, cards) {
    if (status === 422) shake(cards.filter((c) => c.isConnected));
    return status;
  }

  function shake(cards) {
    cards.forEach((c) => {
      c.classList.remove('refused');
      void c.offsetWidth; // restart the animation when the same card is refused twice
      c.classList.add('refused');
      c.addEventListener('animationend', () => c.classList.remove('refused'), { once: true });
    });
  }

  // ---- clicks (mouse, touch and keyboard-free activation) ----

  let suppressClick = false; // the click that ends a drag is not a tap

  table.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button || !table.contains(button)) return;
    if (button.classList.contains('card')) {
      event.preventDefault();
      if (suppressClick) return;
      cancelPick();
      tap(button);
    } else if (button.form && button.form.id === 'f-move') {
      event.preventDefault();
      cancelPick();
      send('moves', { move: 'draw' });
    } else if (button.form && button.form.id === 'f-undo') {
      event.preventDefault();
      undo();
    } else if (button.id === 'hint') {
      event.preventDefault();
      cancelPick();
      hint();
    }
  });

  function undo() {
    cancelPick();
    const button = byId('undo');
    if (button && button.disabled) {
      // Nothing to take back: say why (nothing yet, the undo limit, a won game).
      showMessage(byId('status') ? byId('status').dataset.undoNote : '');
      sound('refused');
      return Promise.resolve(422);
    }
    return send('undo').then((s) => {
      if (s === 422) shake([...document.querySelectorAll('#undo')]);
    });
  }

  /** Undo is on only when something can be taken back; its description says why not,
   * and the change is announced (the button is outside the redrawn blocks). */
  function showUndoState() {
    const button = byId('undo');
    const status = byId('status');
    if (!button || !status) return;
    const off = status.dataset.undo === '0';
    const note = status.dataset.undoNote || '';
    const noteEl = byId('undo-note');
    if (noteEl) noteEl.textContent = note;
    if (off && !button.disabled && note) announce(note);
    if (off && document.activeElement === button) table.querySelector('.pile [tabindex="0"]')?.focus();
    button.disabled = off;
  }

  function hint() {
    if (byId('hint')) askComputer(() => send('hint'));
  }

  // The computer player takes one search of a player at a time (a second is turned away
  // with 429), so the page asks it one thing at a time: a hint waits for the "Still
  // winnable?" check in flight, and a check for the hint.
  let computerLane = Promise.resolve();

  function askComputer(ask) {
    computerLane = computerLane.then(ask, ask);
    return computerLane;
  }

  /** Light up the card of a hinted move ("QC-t2", "draw") for a moment. */
  function showHint(move) {
    const name = move === 'draw' ? null : move.split('-')[0];
    const el = name ? document.querySelector(`#table .card[data-card="${name}"]`)
      : document.querySelector('#pile-stock button');
    if (!el) return;
    el.classList.add('hinted');
    setTimeout(() => el.classList.remove('hinted'), 2500);
  }

  // ---- drag and drop with pointer events (mouse, pen, touch) ----

  let drag = null;

  table.addEventListener('pointerdown', (event) => {
    const card = event.target.closest('.card');
    if (!card || !table.contains(card) || event.button !== 0 || !movable(card)) return;
    drag = { card, x: event.clientX, y: event.clientY, id: event.pointerId, cards: null, over: null };
  });

  table.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.cards) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      drag.cards = withCardsOn(drag.card);
      drag.cards.forEach((c) => c.classList.add('dragging'));
      try { drag.card.setPointerCapture(event.pointerId); } catch (e) { /* pointer already gone */ }
      cancelPick();
    }
    event.preventDefault();
    drag.cards.forEach((c) => { c.style.transform = `translate(${dx}px, ${dy}px)`; });
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const pile = pileOf(under);
    const over = pile && targetOf(pile) && pile !== pileOf(drag.card) ? pile : null;
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove('drop-target');
      if (over) over.classList.add('drop-target');
      drag.over = over;
    }
  });

  function endDrag(event, cancelled) {
    if (!drag || event.pointerId !== drag.id) return;
    const { card, cards, over } = drag;
    drag = null;
    if (!cards) return; // a press without travel: the click that follows is a tap
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    if (over) over.classList.remove('drop-target');
    if (cancelled || !over) {
      flyBack(cards);
      return;
    }
    const move = `${card.dataset.card}-${targetOf(over)}`;
    send('moves', { move }).then((status) => {
      // A refused or failed move leaves the cards where they were: send them home.
      if (status !== 200 || cards.some((c) => c.isConnected)) {
        flyBack(cards.filter((c) => c.isConnected)).then(() => refused(status, cards));
      }
    });
  }

  table.addEventListener('pointerup', (event) => endDrag(event, false));
  table.addEventListener('pointercancel', (event) => endDrag(event, true));

  /** Animate dragged cards back to their place; resolves when they are home. */
  function flyBack(cards) {
    const done = cards.map((c) => {
      const from = c.style.transform;
      c.style.transform = '';
      c.classList.remove('dragging');
      if (!from || reducedMotion.matches || !c.animate) return Promise.resolve();
      return c.animate([{ transform: from }, { transform: 'translate(0, 0)' }],
        { duration: 220, easing: 'cubic-bezier(.3,.7,.4,1)' }).finished.catch(() => {});
    });
    return Promise.all(done);
  }

  // ---- keyboard: arrows move between piles, Enter/Space picks then drops ----

  let picked = null;

  function announce(text) {
    const region = byId('announce');
    if (region) region.textContent = text;
  }

  function pick(card) {
    cancelPick();
    picked = card.dataset.card;
    card.classList.add('picked');
    announce(say('picked', { card: card.getAttribute('aria-label') }));
  }

  function cancelPick() {
    if (!picked) return;
    document.querySelectorAll('.card.picked').forEach((c) => c.classList.remove('picked'));
    picked = null;
  }

  /** What Enter/Space does on a focused board element. */
  function activate(el) {
    const pile = pileOf(el);
    if (!pile) return;
    if (pile.id === 'pile-stock') {
      cancelPick();
      send('moves', { move: 'draw' });
      return;
    }
    if (picked) {
      const name = picked;
      if (el.dataset.card === name) {
        cancelPick();
        send('tap', { card: name }).then((s) => afterKeyMove(s, name, pile.id));
        return;
      }
      const target = targetOf(pile);
      if (!target) {
        announce(say('drop_where'));
        return;
      }
      const from = document.querySelector(`#table .card[data-card="${name}"]`);
      cancelPick();
      send('moves', { move: `${name}-${target}` }).then((s) => {
        if (s === 422 && from) shake(withCardsOn(from));
        afterKeyMove(s, name, pile.id);
      });
      return;
    }
    if (el.classList.contains('card') && movable(el)) pick(el);
  }

  function afterKeyMove(status, name, fallbackPile) {
    if (status === 200) {
      const card = document.querySelector(`#table .card[data-card="${name}"]`);
      if (card) { card.focus(); return; }
    }
    refocus(fallbackPile);
  }

  /** Where focus is on the board: a redrawn pile replaces the focused node. */
  function focusMemo() {
    const el = document.activeElement;
    const pile = pileOf(el);
    return pile && table.contains(pile) ? { pile: pile.id, card: el.dataset.card } : null;
  }

  /** After a swap, focus the same card (wherever it went) or else the same pile. */
  function restoreFocus(memo) {
    const el = document.activeElement;
    if (!memo || (el && el !== document.body && el.isConnected)) return;
    const same = memo.card && document.querySelector(`#table .card[data-card="${memo.card}"]`);
    if (same) same.focus();
    else refocus(memo.pile);
  }

  /** Put focus back on a pile after it was redrawn. */
  function refocus(pileId) {
    if (document.activeElement && document.activeElement !== document.body &&
        document.activeElement.isConnected) return;
    const pile = byId(pileId);
    const anchor = pile && (pile.querySelector('[tabindex="0"]') || pile.querySelector('button'));
    if (anchor) anchor.focus();
  }

  /** The nearest focusable board element from `from` in an arrow's direction. */
  function nearest(from, key) {
    const here = from.getBoundingClientRect();
    const hx = here.left + here.width / 2;
    const hy = here.top + here.height / 2;
    let best = null;
    let bestScore = Infinity;
    table.querySelectorAll('.pile .card, .pile .slot, .pile .back').forEach((el) => {
      if (el === from) return;
      const r = el.getBoundingClientRect();
      const dx = r.left + r.width / 2 - hx;
      const dy = r.top + r.height / 2 - hy;
      const ahead = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      const aside = key === 'ArrowRight' || key === 'ArrowLeft' ? Math.abs(dy) : Math.abs(dx);
      if (ahead <= 4) return;
      const score = ahead + aside * 3;
      if (score < bestScore) { bestScore = score; best = el; }
    });
    return best;
  }

  function onBoard(el) {
    return el && table.contains(el) && pileOf(el);
  }

  document.addEventListener('keydown', (event) => {
    const el = document.activeElement;
    if (document.querySelector('.win.show')) return; // the board's keys wait behind the win box
    if (event.target.closest && event.target.closest('input, textarea, select, [popover]')) return;
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'z') {
      event.preventDefault();
      undo();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key === 'Escape' && picked) {
      cancelPick();
      announce(say('cancelled'));
    } else if (key === 'd' || key === 'D') {
      cancelPick();
      send('moves', { move: 'draw' });
    } else if (key === 'u' || key === 'U') {
      undo();
    } else if ((key === 'h' || key === 'H') && byId('hint')) {
      hint();
    } else if (key === '?' && byId('guide')) {
      event.preventDefault();
      byId('guide').showPopover();
    } else if (key.startsWith('Arrow')) {
      const from = onBoard(el) ? el : null;
      const next = from ? nearest(from, key) : table.querySelector('.pile [tabindex="0"]');
      if (next) { event.preventDefault(); next.focus(); }
    } else if ((key === 'Enter' || key === ' ') && onBoard(el)) {
      event.preventDefault();
      activate(el);
    }
  });

  // ---- share the deal ----

  const shareButton = byId('share');
  const sharePanel = byId('share-panel');
  if (shareButton && sharePanel) {
    const link = byId('share-link');
    const note = byId('share-note');
    const url = new URL(`/deal/${table.dataset.code}`, window.location.origin).href;
    link.value = url;
    shareButton.addEventListener('click', () => {
      note.textContent = '';
      const copied = navigator.clipboard && window.isSecureContext
        ? navigator.clipboard.writeText(url) : Promise.reject(new Error('no clipboard'));
      copied.then(
        () => { note.textContent = say('copied'); },
        () => { note.textContent = say('copy_by_hand'); },
      );
    });
    // Always leave the link selected, so copying by hand is one keystroke away.
    sharePanel.addEventListener('toggle', (event) => {
      if (event.newState === 'open') { link.focus(); link.select(); }
    });
  }

  // ---- "Still winnable?": asked after each change, never holding up a move ----

  const winnableBox = byId('still-winnable');
  const verdict = byId('winnable');
  let askedVersion = null;

  function showVerdict(state) {
    if (!verdict) return;
    verdict.dataset.state = state;
    verdict.textContent = say(`winnable_${state}`);
  }

  /** Ask whether the position shown can still be won (once per version); an answer
   * for a version the page has moved past is dropped. */
  function checkWinnable(again) {
    if (!winnableBox || !winnableBox.checked) return;
    const asked = version();
    if (!again && asked === askedVersion) return;
    askedVersion = asked;
    showVerdict('checking');
    const moved = () => !winnableBox.checked || version() !== asked; // the game moved on
    askComputer(() => (moved() ? null : fetch(
      `/api/games/${gameId}/winnable?version=${encodeURIComponent(asked)}`,
      { headers: { Accept: 'application/json' }, credentials: 'same-origin' },
    ).then((response) => (response.ok ? response.json() : null), () => null)
      .then((answer) => {
        if (moved()) return;
        if (!answer || String(answer.version) !== asked) { showVerdict('unsure'); return; }
        showVerdict({ true: 'yes', false: 'no' }[String(answer.winnable)] || 'unsure');
      })));
  }

  if (winnableBox) {
    winnableBox.addEventListener('change', () => {
      const on = winnableBox.checked;
      // Remembered for the player (their next games open with it on or off).
      fetch('/prefs', {
        method: 'POST', credentials: 'same-origin',
        body: new URLSearchParams({ still_winnable: on ? 'true' : 'false' }),
      }).catch(() => {});
      if (on) checkWinnable(true);
      else { askedVersion = null; showVerdict('off'); }
    });
  }

  // ---- after every change: the win, the winnable check ----

  let celebrated = false;

  /** A game that has just been won celebrates; one opened already won just says so. */
  function afterChange(opening) {
    if (!document.querySelector('.win.show')) hideWin(); // a redraw took the win box away
    checkWinnable(false);
    showUndoState();
    const status = byId('status');
    if (!status || status.dataset.won !== 'true' || celebrated) return;
    celebrated = true;
    if (!opening) sound('win');
    (opening ? Promise.resolve() : cascade()).then(() => {
      const shown = byId('status') && byId('status').querySelector('.win');
      if (shown) showWin(shown);
    });
  }

  /** The cards leave the foundations one by one and bounce off the bottom of the screen. */
  function cascade() {
    if (reducedMotion.matches || !document.body.animate) return Promise.resolve();
    const layer = document.createElement('div');
    layer.className = 'cascade';
    layer.setAttribute('aria-hidden', 'true');
    document.body.appendChild(layer);
    document.body.classList.add('cascading');
    const ranks = 'A23456789TJQK';
    const start = ranks.indexOf(table.dataset.startRank || 'A');
    const piles = [...document.querySelectorAll('.foundation')];
    const floor = window.innerHeight;
    const animations = [];
    for (let step = 12; step >= 0; step--) {
      piles.forEach((pile, i) => {
        const box = pile.getBoundingClientRect();
        const card = document.createElement('span');
        card.className = 'card';
        card.dataset.card = ranks[(start + step) % 13] + pile.dataset.pile.slice(1);
        card.style.left = `${box.left}px`;
        card.style.top = `${box.top}px`;
        layer.prepend(card); // the first to leave lies on top
        const order = (12 - step) * piles.length + i;
        const vx = (i % 2 ? 1 : -1) * (2.5 + ((order * 7) % 5));
        const frames = [];
        let x = 0; let y = 0; let vy = -4 - (order % 4);
        for (let t = 0; t < 90; t++) {
          x += vx; vy += 0.9; y += vy;
          if (box.top + y + box.height > floor) { y = floor - box.top - box.height; vy *= -0.72; }
          frames.push({ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)` });
        }
        animations.push(card.animate(frames, { duration: 1500, delay: order * 45, fill: 'both' }));
      });
    }
    // Any key or tap skips the show.
    const skip = () => animations.forEach((a) => a.finish());
    document.addEventListener('pointerdown', skip, { once: true });
    document.addEventListener('keydown', skip, { once: true });
    return Promise.all(animations.map((a) => a.finished.catch(() => {}))).then(() => {
      document.removeEventListener('pointerdown', skip);
      document.removeEventListener('keydown', skip);
      document.body.classList.remove('cascading');
      layer.remove();
    });
  }

  // ---- the win box: a modal dialog while it shows ----

  let outside = []; // what the shown win box made inert

  /** Show the win box; the rest of the page is inert (no focus, no clicks) until it goes. */
  function showWin(win) {
    win.classList.add('show');
    for (let node = win; node.parentElement && node !== document.body; node = node.parentElement) {
      for (const other of node.parentElement.children) {
        if (other !== node && !other.inert) { other.inert = true; outside.push(other); }
      }
    }
    const first = win.querySelector('.btn');
    if (first) first.focus();
  }

  /** Put the win box aside (or let go after it was redrawn away): the board is live again. */
  function hideWin() {
    const win = document.querySelector('.win.show');
    if (win) win.classList.remove('show');
    if (!outside.length) return;
    outside.forEach((el) => { el.inert = false; });
    outside = [];
    if (win && byId('new')) byId('new').focus();
  }

  // The win box can be put aside to look at the finished board.
  document.addEventListener('click', (event) => {
    if (event.target.closest('.win-close')) hideWin();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && document.querySelector('.win.show')) hideWin();
  });

  // ---- the position in words: two lines on screen until the player opens it ----

  const more = byId('summary-more');
  if (more) {
    more.addEventListener('click', () => {
      const open = more.getAttribute('aria-expanded') !== 'true';
      more.setAttribute('aria-expanded', open ? 'true' : 'false');
      const summary = byId('summary');
      if (summary) summary.classList.toggle('open', open);
    });
  }

  // ---- sound: short tones made by Web Audio (no files), off until the player turns it on ----

  const soundButton = byId('sound');
  const menuSound = byId('menu-sound');
  // [frequency in Hz, start in s, length in s, wave]
  const TONES = {
    move: [[660, 0, 0.07, 'triangle']],
    draw: [[440, 0, 0.04, 'triangle'], [550, 0.05, 0.05, 'triangle']],
    refused: [[180, 0, 0.14, 'square']],
    win: [[523, 0, 0.12, 'triangle'], [659, 0.12, 0.12, 'triangle'], [784, 0.24, 0.12, 'triangle'],
      [1047, 0.36, 0.35, 'triangle']],
  };
  let audio = null;

  /** Whether the player turned the sound on (remembered for the player by the server). */
  function soundOn() {
    return table.dataset.sound === 'true';
  }

  /** Play one of TONES; a sound never holds up or breaks a move. */
  function sound(name) {
    if (!soundOn() || !window.AudioContext || !TONES[name]) return;
    try {
      audio = audio || new AudioContext();
      if (audio.state === 'suspended') audio.resume();
      const now = audio.currentTime;
      TONES[name].forEach(([frequency, at, length, wave]) => {
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        tone.type = wave;
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.12, now + at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
        tone.connect(gain).connect(audio.destination);
        tone.start(now + at);
        tone.stop(now + at + length + 0.02);
      });
    } catch (e) { /* no sound, same game */ }
  }

  function showSoundState() {
    const on = soundOn();
    [soundButton, menuSound].forEach((button) => {
      if (button) button.setAttribute('aria-pressed', on ? 'true' : 'false');
    });
    if (soundButton) soundButton.title = say(on ? 'sound_on' : 'sound_off');
  }

  function toggleSound() {
    const on = !soundOn();
    table.dataset.sound = on ? 'true' : 'false';
    // Remembered for the player; the page goes on whatever the answer.
    fetch('/prefs', {
      method: 'POST', credentials: 'same-origin', body: new URLSearchParams({ sound: on }),
    }).catch(() => {});
    showSoundState();
    announce(say(on ? 'sound_on' : 'sound_off'));
    if (on) sound('move');
  }

  [soundButton, menuSound].forEach((button) => {
    if (button) button.addEventListener('click', toggleSound);
  });
  showSoundState();

  afterChange(true);
})();
