// A3S Code browser UI: sessions, a prompt, the run's v1 events streamed over SSE (fetch, so the
// bearer token rides in a header), approvals, runs replay. Every string from the server is put
// in the page with textContent, never as HTML.
const MAX_OUTPUT_CHARS = 4000;
const $ = (id) => document.getElementById(id);
const store = window.sessionStorage;
const state = { token: '', sessionId: '', runId: '', lastSeq: 0, controller: null, turnBlock: null, tools: new Map(), timers: new Map() };

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function setStatus(text) {
  $('status').textContent = text;
}

async function api(path, init = {}) {
  const headers = { authorization: `Bearer ${state.token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    const error = new Error(body.error?.message ?? `HTTP ${response.status}`);
    error.code = body.error?.code ?? 'HTTP_ERROR';
    error.status = response.status;
    throw error;
  }
  return response;
}
const getJson = async (path) => (await api(path)).json();
const postJson = async (path, body) => (await api(path, { method: 'POST', body: JSON.stringify(body ?? {}) })).json();

// ---- SSE over fetch --------------------------------------------------------------------------

async function* sseMessages(body, signal) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let message = { event: '', data: [], id: null };
  try {
    while (!signal.aborted) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let index;
      while ((index = buffer.search(/\r\n|\r|\n/)) !== -1) {
        const end = buffer[index] === '\r' && buffer[index + 1] === '\n' ? index + 2 : index + 1;
        const line = buffer.slice(0, index);
        buffer = buffer.slice(end);
        if (line === '') {
          if (message.data.length > 0) yield { event: message.event || 'message', data: message.data.join('\n'), id: message.id };
          message = { event: '', data: [], id: null };
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          let value = colon === -1 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (field === 'event') message.event = value;
          else if (field === 'data') message.data.push(value);
          else if (field === 'id') message.id = value;
        }
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** Follows the run's stream; on a dropped connection reconnects with Last-Event-ID = last rendered sequence. */
async function follow(sessionId, runId, controller) {
  let delay = 250;
  while (!controller.signal.aborted) {
    try {
      const headers = state.lastSeq > 0 ? { 'last-event-id': String(state.lastSeq) } : {};
      const response = await api(`/api/sessions/${encodeURIComponent(sessionId)}/runs/${encodeURIComponent(runId)}/stream`, { headers, signal: controller.signal });
      setStatus('streaming');
      delay = 250;
      for await (const message of sseMessages(response.body, controller.signal)) {
        if (message.event === 'end') {
          finishRun(JSON.parse(message.data).status);
          return;
        }
        if (message.event === 'gap') {
          logMeta(`events before #${JSON.parse(message.data).firstAvailableSequence} were evicted`);
          continue;
        }
        if (message.id !== null) render(Number(message.id), JSON.parse(message.data));
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      // A refusal that retrying cannot fix ends the follow; everything else reconnects.
      if (error.code === 'UNAUTHORIZED') {
        askForToken();
        return;
      }
      if (error.status !== undefined && error.status < 500 && error.status !== 409) {
        setStatus(`error: ${error.code}`);
        logMeta(`${error.code}: ${error.message}`);
        return;
      }
    }
    if (controller.signal.aborted) return;
    setStatus('reconnecting');
    $('log').dataset.reconnects = String(Number($('log').dataset.reconnects ?? '0') + 1);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 5000);
  }
}

// ---- rendering -------------------------------------------------------------------------------

function logMeta(text) {
  $('log').append(el('p', { class: 'meta', text }));
}

function bounded(text) {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  return `${text.slice(0, MAX_OUTPUT_CHARS)}\n… ${text.length - MAX_OUTPUT_CHARS} more characters`;
}

function diffBlock(text) {
  const pre = el('pre', { class: 'diff' });
  for (const line of bounded(text).split('\n')) {
    const cls = line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : '';
    pre.append(cls ? el('span', { class: cls, text: line }) : document.createTextNode(`${line}\n`));
  }
  return pre;
}

function argsSummary(args) {
  if (args === null || typeof args !== 'object') return '';
  const first = args.command ?? args.file_path ?? args.pattern ?? args.path;
  return typeof first === 'string' ? first.slice(0, 120) : '';
}

function render(seq, event) {
  const log = $('log');
  if (seq <= state.lastSeq) {
    log.dataset.duplicates = String(Number(log.dataset.duplicates) + 1);
    return;
  }
  state.lastSeq = seq;
  log.dataset.lastSeq = String(seq);
  const p = event.payload ?? {};
  const mark = (node) => {
    node.dataset.seq = String(seq);
    node.dataset.type = event.type;
    return node;
  };
  switch (event.type) {
    case 'agent_start':
      log.append(mark(el('p', { class: 'meta', text: `▶ ${p.prompt ?? ''}` })));
      break;
    case 'turn_start': {
      if (state.turnBlock !== null && state.turnBlock.dataset.turn === String(p.turn)) state.turnBlock.textContent = '';
      else {
        state.turnBlock = mark(el('div', { class: 'text', 'data-turn': String(p.turn) }));
        log.append(state.turnBlock);
      }
      break;
    }
    case 'text_delta':
      if (state.turnBlock === null) {
        state.turnBlock = mark(el('div', { class: 'text' }));
        log.append(state.turnBlock);
      }
      state.turnBlock.append(document.createTextNode(p.text ?? ''));
      break;
    case 'tool_start': {
      const output = el('pre', { class: 'output' });
      const summary = el('summary', { text: `${p.tool_name} ${argsSummary(p.args)} …` });
      const card = mark(el('details', { class: 'tool', 'data-tool-id': p.tool_id, 'data-tool-name': p.tool_name }, [summary, el('pre', { class: 'args', text: JSON.stringify(p.args, null, 2) }), output]));
      state.tools.set(p.tool_id, { card, summary, output, streamed: '', args: p.args });
      log.append(card);
      break;
    }
    case 'tool_output_delta': {
      const tool = state.tools.get(p.tool_id);
      if (tool) {
        tool.streamed += p.text ?? p.delta ?? '';
        tool.output.textContent = bounded(tool.streamed);
      }
      break;
    }
    case 'tool_end': {
      const tool = state.tools.get(p.tool_id);
      if (!tool) break;
      const ok = p.exit_code === 0;
      tool.card.classList.toggle('failed', !ok);
      tool.card.dataset.exitCode = String(p.exit_code);
      tool.summary.textContent = `${ok ? '✓' : '✗'} ${p.tool_name} ${argsSummary(tool.args)} (exit ${p.exit_code}, ${Math.round(p.duration_ms ?? 0)} ms)`;
      const diff = typeof p.metadata?.diff === 'string' ? p.metadata.diff : ['edit', 'patch'].includes(p.tool_name) ? p.output : null;
      tool.output.replaceWith(diff !== null ? diffBlock(diff) : el('pre', { class: 'output', text: bounded(p.output ?? '') }));
      for (const uri of p.artifacts ?? []) tool.card.append(el('p', { class: 'meta', text: `full output kept as ${uri}` }));
      break;
    }
    case 'confirmation_required':
      log.append(mark(el('p', { class: 'meta', text: `? ${p.tool_name} needs approval` })));
      showApproval(p, event.metadata?.timestamp_ms ?? Date.now());
      break;
    case 'confirmation_received':
    case 'confirmation_timeout':
      removeApproval(p.tool_id);
      log.append(mark(el('p', { class: 'meta', text: event.type === 'confirmation_timeout' ? `${p.tool_name}: confirmation timed out (${p.action})` : `${p.tool_name}: ${p.approved ? 'approved' : 'denied'}` })));
      break;
    case 'agent_end':
      log.append(mark(el('p', { class: 'meta', text: '■ run finished' })));
      break;
    case 'error':
      log.append(mark(el('p', { class: 'meta', text: `error ${p.code}: ${p.message}` })));
      break;
    case 'turn_end':
    case 'tool_input_delta':
    case 'tool_execution_start':
      break;
    default:
      log.append(mark(el('p', { class: 'meta', text: event.type })));
  }
  log.scrollTop = log.scrollHeight;
}

function showApproval(p, requestedAtMs) {
  removeApproval(p.tool_id);
  const countdown = el('span', { class: 'countdown' });
  const answer = async (approved) => {
    box.querySelectorAll('button').forEach((b) => (b.disabled = true));
    try {
      await postJson(`/api/sessions/${encodeURIComponent(state.sessionId)}/confirmations/${encodeURIComponent(p.tool_id)}`, { approved });
      removeApproval(p.tool_id);
    } catch (error) {
      countdown.textContent = `${error.code}: ${error.message}`;
    }
  };
  const box = el('div', { class: 'approval', 'data-tool-id': p.tool_id, role: 'group', 'aria-label': `Approve ${p.tool_name}?` }, [
    el('strong', { text: `${p.tool_name} wants to run` }),
    el('pre', { text: JSON.stringify(p.args, null, 2) }),
    el('div', { class: 'row' }, [
      el('button', { type: 'button', class: 'approve', text: 'Approve', onclick: () => answer(true) }),
      el('button', { type: 'button', class: 'deny', text: 'Deny', onclick: () => answer(false) }),
      countdown,
    ]),
  ]);
  const tick = () => {
    const left = Math.max(0, Math.round((requestedAtMs + (p.timeout_ms ?? 0) - Date.now()) / 1000));
    countdown.textContent = `${left} s left`;
  };
  tick();
  state.timers.set(p.tool_id, setInterval(tick, 1000));
  $('approvals').append(box);
}

function removeApproval(toolId) {
  clearInterval(state.timers.get(toolId));
  state.timers.delete(toolId);
  for (const box of $('approvals').querySelectorAll('.approval')) if (box.dataset.toolId === toolId) box.remove();
}

function finishRun(status) {
  for (const toolId of [...state.timers.keys()]) removeApproval(toolId);
  logMeta(`run ${status}`);
  $('log').dataset.runStatus = status;
  setStatus(`run ${status}`);
  $('cancel-button').disabled = true;
  void loadRuns();
}

// ---- sessions and runs -----------------------------------------------------------------------

function openRun(runId) {
  state.controller?.abort();
  const controller = new AbortController();
  state.controller = controller;
  state.runId = runId;
  state.lastSeq = 0;
  state.turnBlock = null;
  state.tools.clear();
  for (const toolId of [...state.timers.keys()]) removeApproval(toolId);
  const log = $('log');
  log.replaceChildren();
  log.dataset.duplicates = '0';
  log.dataset.reconnects = '0';
  log.dataset.runId = runId;
  delete log.dataset.runStatus;
  delete log.dataset.lastSeq;
  store.setItem('a3s.runId', runId);
  $('cancel-button').disabled = false;
  markCurrentRun();
  void follow(state.sessionId, runId, controller);
}

function markCurrentRun() {
  for (const button of $('runs').querySelectorAll('button')) button.setAttribute('aria-current', String(button.dataset.runId === state.runId));
}

async function loadRuns() {
  if (!state.sessionId) return;
  const { runs } = await getJson(`/api/sessions/${encodeURIComponent(state.sessionId)}/runs`);
  $('runs').replaceChildren(
    ...runs
      .slice()
      .reverse()
      .map((run) => el('li', {}, [el('button', { type: 'button', 'data-run-id': run.id, 'data-status': run.status, text: `${run.status} · ${run.prompt.slice(0, 60)}`, onclick: () => openRun(run.id) })])),
  );
  markCurrentRun();
}

async function loadSessions() {
  const { sessions } = await getJson('/api/sessions');
  $('session-select').replaceChildren(...sessions.map((s) => el('option', { value: s.id, text: s.id })));
  if (state.sessionId) $('session-select').value = state.sessionId;
}

async function selectSession(id) {
  state.controller?.abort();
  state.sessionId = id;
  state.runId = '';
  store.setItem('a3s.sessionId', id);
  store.removeItem('a3s.runId');
  $('log').replaceChildren();
  await loadRuns();
}

async function start() {
  $('app').hidden = false;
  const config = await getJson('/api/config');
  $('workspace-input').value = config.workspaceRoots[0] ?? '';
  state.sessionId = store.getItem('a3s.sessionId') ?? '';
  await loadSessions();
  if (state.sessionId) {
    await loadRuns();
    const runId = store.getItem('a3s.runId');
    if (runId) openRun(runId);
  }
  setStatus('ready');
}

$('session-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const created = await postJson('/api/sessions', { workspace: $('workspace-input').value });
    state.sessionId = created.id;
    await loadSessions();
    await selectSession(created.id);
    $('prompt-input').focus();
  } catch (error) {
    setStatus(`error: ${error.code}`);
    logMeta(`${error.code}: ${error.message}`);
  }
});

$('session-select').addEventListener('change', () => void selectSession($('session-select').value));

$('prompt-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = $('prompt-input').value.trim();
  if (!prompt || !state.sessionId) return;
  try {
    const run = await postJson(`/api/sessions/${encodeURIComponent(state.sessionId)}/runs`, { prompt });
    $('prompt-input').value = '';
    openRun(run.id);
    await loadRuns();
  } catch (error) {
    setStatus(`error: ${error.code}`);
    logMeta(`${error.code}: ${error.message}`);
  }
});

$('prompt-input').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) $('prompt-form').requestSubmit();
});

$('cancel-button').addEventListener('click', async () => {
  if (state.runId) await postJson(`/api/sessions/${encodeURIComponent(state.sessionId)}/runs/${encodeURIComponent(state.runId)}/cancel`).catch(() => undefined);
});

/** The token was refused (or is missing): forget it and ask for it. */
function askForToken() {
  store.removeItem('a3s.token');
  state.token = '';
  $('app').hidden = true;
  $('auth').hidden = false;
  setStatus('token needed');
  $('token-input').focus();
}

$('auth-form').addEventListener('submit', (event) => {
  event.preventDefault();
  state.token = $('token-input').value.trim();
  store.setItem('a3s.token', state.token);
  $('auth').hidden = true;
  void start().catch(failed);
});

// The token arrives in the URL fragment (never sent to the server); keep it for this tab only.
const fragment = new URLSearchParams(window.location.hash.slice(1));
if (fragment.get('token')) {
  store.setItem('a3s.token', fragment.get('token'));
  history.replaceState(null, '', window.location.pathname);
}
state.token = store.getItem('a3s.token') ?? '';
const failed = (error) => (error.code === 'UNAUTHORIZED' ? askForToken() : setStatus(`error: ${error.code ?? error.message}`));
if (state.token) void start().catch(failed);
else askForToken();
