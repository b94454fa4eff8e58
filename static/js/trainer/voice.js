// The kimariji drills read the kimariji aloud: the upper verse's clips up to the deciding
// kana, from the page's table (games/karuta/trainer_voice.py reads the voice's manifest),
// fetched and decoded by the game's ClipLoader the first time each is heard. The service
// worker keeps a static file once fetched, so a clip heard once plays offline too.
import { AudioRest } from "../audio-rest.js";
import { ClipLoader } from "../karuta/voice-loader.js";

const KEY = "hyakunin.trainer.voice"; // "off": muted (this browser only, never sent)
const LEAD_S = 0.03; // clips are placed this far ahead so the first is not cut short

let mutedHere = null; // this page's choice, when storage is blocked

export function isMuted() {
  if (mutedHere !== null) return mutedHere;
  try {
    return localStorage.getItem(KEY) === "off";
  } catch {
    return false;
  }
}

export function setMuted(muted) {
  try {
    localStorage.setItem(KEY, muted ? "off" : "on");
  } catch {
    mutedHere = muted; // storage blocked: the choice holds for this page
  }
}

/** `table`: poem → [[url, start ms, end ms], ...]. play(n) resolves to the URLs it played.
 * `timers`: AudioRest's (the context is suspended between kimariji). */
export function kimarijiVoice(table, { Context = globalThis.AudioContext, timers = {} } = {}) {
  let context = null;
  let loader = null;
  let idle = null;
  let sources = [];
  let turn = 0; // a newer play or a stop makes an older play's late clips play nothing
  const stop = () => {
    turn += 1;
    for (const source of sources) source.stop();
    sources = [];
  };
  // Made inside the click or key that starts a drill: a browser lets audio start there.
  const prepare = () => {
    if (!Context) return false;
    context ??= new Context();
    loader ??= new ClipLoader(context);
    idle ??= new AudioRest(context, timers);
    if (idle.resting) idle.wake().catch(() => {});
    else if (context.state === "suspended") context.resume().catch(() => {});
    return true;
  };
  const load = (chain) => Promise.all(chain.map(([url]) => loader.load({ id: url, url })));
  return {
    available: Boolean(Context) && Object.keys(table).length > 0,
    prepare,
    stop,
    /** Fetch and decode a poem's clips ahead (the next card's), playing nothing. */
    preload(n) {
      if (table[n]?.length && prepare()) load(table[n]).catch(() => {});
    },
    async play(n) {
      const chain = table[n];
      stop();
      if (!chain?.length || !prepare()) return [];
      const mine = turn;
      let buffers;
      try {
        buffers = await load(chain);
      } catch {
        return []; // not fetched (offline before it was ever heard): the card is still shown
      }
      if (mine !== turn) return [];
      const at = context.currentTime + LEAD_S;
      chain.forEach(([, start, end], i) => {
        const source = context.createBufferSource();
        source.buffer = buffers[i];
        source.connect(context.destination);
        source.start(at + start / 1000, 0, end / 1000);
        sources.push(source);
      });
      idle.busy(at + Math.max(...chain.map(([, start, end]) => (start + end) / 1000)));
      return chain.map(([url]) => url);
    },
  };
}
