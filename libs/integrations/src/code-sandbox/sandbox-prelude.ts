/**
 * JavaScript evaluated once in each sandbox context, before any code runs. It defines
 * `console` (bounded per run: 100 lines, 16 KiB), removes what the contract keeps out of reach
 * (SharedArrayBuffer, Atomics, WeakRef, FinalizationRegistry), then hardens the realm — every
 * built-in reachable from the global object frozen, the global object's own properties fixed —
 * so that one context serves run after run (and project after project) with nothing carried
 * from one to the next: a run reports whether it left the global object untouched (a count of
 * its keys), and after one that did not `clean` deletes the globals the code added; the host
 * makes a new context when it cannot (quickjs-sandbox.ts). Assignments that a frozen
 * prototype would refuse (`error.name = …`, `obj.toString = …`: the "override mistake") define
 * an own property instead, as SES does.
 *
 * The host gets text only (JSON), never an object: whatever the code does, the host reads a
 * bounded string and checks its shape, so nothing here is the security boundary — the
 * WebAssembly sandbox is.
 */
export const SANDBOX_PRELUDE = String.raw`(function () {
  'use strict';
  var MAX_LINES = 100, MAX_CHARS = 16384, MAX_CACHED = 64;
  var stringify = JSON.stringify, parse = JSON.parse, keys = Object.keys, isArray = Array.isArray, makeFunction = Function;
  var freeze = Object.freeze, getPrototypeOf = Object.getPrototypeOf, ownKeys = Reflect.ownKeys, describe = Object.getOwnPropertyDescriptor;
  var defineProperty = Object.defineProperty, deleteProperty = Reflect.deleteProperty, isExtensible = Object.isExtensible;
  var lines = [], chars = 0, dropped = 0;

  function show(value) {
    if (typeof value === 'string') return value;
    try { var text = stringify(value); return text === undefined ? String(value) : text; } catch (e) { return String(value); }
  }
  function logger(level) {
    return function () {
      if (lines.length >= MAX_LINES || chars >= MAX_CHARS) { dropped++; return; }
      var parts = [];
      for (var i = 0; i < arguments.length; i++) parts[i] = show(arguments[i]);
      var text = parts.join(' ');
      if (chars + text.length > MAX_CHARS) { text = text.slice(0, MAX_CHARS - chars); dropped++; }
      chars += text.length;
      lines[lines.length] = { level: level, text: text };
    };
  }
  globalThis.console = { log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('log') };
  delete globalThis.SharedArrayBuffer;
  delete globalThis.Atomics;
  delete globalThis.WeakRef;
  delete globalThis.FinalizationRegistry;

  // The override mistake: these inherited data properties become accessors whose setter defines an own property.
  function tame(object, names) {
    for (var i = 0; i < names.length; i++) {
      var name = names[i], found = describe(object, name);
      if (!found || !('value' in found)) continue;
      (function (name, value) {
        defineProperty(object, name, {
          get: function () { return value; },
          set: function (next) {
            if (this === object) throw new TypeError('Cannot assign to ' + String(name) + ': the built-ins are frozen');
            defineProperty(this, name, { value: next, writable: true, enumerable: true, configurable: true });
          },
          enumerable: found.enumerable,
          configurable: false,
        });
      })(name, found.value);
    }
  }
  tame(Object.prototype, ['constructor', 'toString', 'toLocaleString', 'valueOf', 'hasOwnProperty']);
  tame(Error.prototype, ['constructor', 'name', 'message', 'toString']);
  tame(Function.prototype, ['constructor', 'toString']);
  tame(Array.prototype, ['constructor', 'toString', 'push', 'join']);

  var hardened = new Set();
  function harden(value) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || hardened.has(value)) return;
    hardened.add(value);
    freeze(value);
    harden(getPrototypeOf(value));
    var names = ownKeys(value);
    for (var j = 0; j < names.length; j++) {
      var property = describe(value, names[j]);
      if (!property) continue;
      harden(property.value);
      harden(property.get);
      harden(property.set);
    }
  }
  var globalNames = ownKeys(globalThis), baseline = Object.create(null), baselineSymbols = [];
  for (var g = 0; g < globalNames.length; g++) {
    var name = globalNames[g], property = describe(globalThis, name);
    if (name !== 'globalThis') harden(property.value);
    harden(property.get);
    harden(property.set);
    if ('value' in property) defineProperty(globalThis, name, { value: property.value, writable: false, enumerable: property.enumerable, configurable: false });
    else defineProperty(globalThis, name, { get: property.get, set: property.set, enumerable: property.enumerable, configurable: false });
    if (typeof name === 'symbol') baselineSymbols[baselineSymbols.length] = name;
    else baseline[name] = true;
  }
  hardened = null;
  // Nothing of the baseline can be deleted (every property is non-configurable): as many own
  // keys after a run as now means the run added no global, and there is nothing to clean.
  var baselineCount = ownKeys(globalThis).length;

  function isBaselineSymbol(symbol) {
    for (var i = 0; i < baselineSymbols.length; i++) if (baselineSymbols[i] === symbol) return true;
    return false;
  }

  function NotJson(message) { this.message = message; }
  function plain(value, path, ancestors) {
    if (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.toJSON === 'function') value = value.toJSON();
    var type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'bigint') throw new NotJson(path + ' is a ' + (type === 'bigint' ? 'BigInt' : type) + ', which JSON cannot hold');
    if (type === 'number') return isFinite(value) ? value : null;
    if (value === null || type !== 'object') return value;
    if (value instanceof Promise) throw new NotJson(path + ' is a Promise: Run Code runs synchronously (no await, no timers)');
    for (var i = 0; i < ancestors.length; i++) if (ancestors[i] === value) throw new NotJson(path + ' refers back to ' + (i === 0 ? 'the result' : 'an object that contains it') + ' (a cycle)');
    ancestors[ancestors.length] = value;
    var copy;
    if (isArray(value)) {
      copy = [];
      for (var j = 0; j < value.length; j++) { var item = plain(value[j], path + '.' + j, ancestors); copy[j] = item === undefined ? null : item; }
    } else {
      copy = {};
      var names = keys(value);
      for (var k = 0; k < names.length; k++) {
        var field = plain(value[names[k]], path + '.' + names[k], ancestors);
        if (field !== undefined) defineProperty(copy, names[k], { value: field, enumerable: true, writable: true, configurable: true });
      }
    }
    ancestors.length--;
    return copy;
  }
  function report(extra) {
    extra.console = lines;
    extra.dropped = dropped;
    return stringify(extra);
  }
  // Compiled code by its text, frozen: stateless, so shared by the runs (and projects) that run the same text.
  var compiled = Object.create(null), cachedCount = 0;
  function compile(code) {
    var fn = compiled[code];
    if (fn !== undefined) return fn;
    fn = makeFunction('input', code);
    freeze(fn);
    freeze(fn.prototype);
    if (cachedCount >= MAX_CACHED) { compiled = Object.create(null); cachedCount = 0; }
    compiled[code] = fn;
    cachedCount++;
    return fn;
  }
  // True when the run left the global object as the prelude did: no added global, still extensible.
  function untouched() {
    return ownKeys(globalThis).length === baselineCount && isExtensible(globalThis);
  }
  return {
    run: function (code, inputJson, maxChars) {
      lines = []; chars = 0; dropped = 0;
      var value = compile(code).call(undefined, parse(inputJson));
      var json;
      try { json = stringify(plain(value, 'result', [])); } catch (e) {
        if (e instanceof NotJson) return report({ ok: false, message: 'the result is not JSON: ' + e.message, clean: untouched() });
        throw e;
      }
      if (json === undefined) json = 'null';
      if (json.length > maxChars) return report({ ok: false, tooLarge: json.length, clean: untouched() });
      // Without console lines (the common case) the answer is the result's JSON behind one mark
      // character, which also says whether the global object was left untouched.
      if (lines.length === 0 && dropped === 0) return (untouched() ? '\u0001' : '\u0002') + json;
      return report({ ok: true, json: json, clean: untouched() });
    },
    describe: function (error) {
      var name = 'Error', message, stack = '';
      try {
        if (error !== null && typeof error === 'object') {
          name = String(error.name);
          message = String(error.message);
          stack = String(error.stack);
        } else message = 'threw ' + show(error);
      } catch (e) { message = 'threw a value that cannot be shown'; }
      return report({ name: name, message: message, stack: stack });
    },
    // After a run that added globals (or failed): they go; false when one cannot (the host then makes a new context).
    clean: function () {
      lines = []; chars = 0; dropped = 0;
      var names = ownKeys(globalThis);
      for (var i = 0; i < names.length; i++) {
        var name = names[i];
        if (typeof name === 'symbol' ? isBaselineSymbol(name) : baseline[name] === true) continue;
        if (!deleteProperty(globalThis, name)) return false;
      }
      return isExtensible(globalThis);
    },
  };
})()`;
