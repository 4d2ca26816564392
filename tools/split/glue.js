
// ---- the module's deferred part (tools/split; docs/page-module.md) ----
// tools/build-pkg.sh appends this to wasm-bindgen's glue, whose `wasm` (the
// first part's exports) it uses. The first part leaves out the functions a
// first visit does not run; they are pkg/raftlab_deferred.wasm, fetched
// once the page is idle (loadDeferred), or at once, while the module waits,
// by the first of them that runs before that (the stubs' import
// `$split.load`). Instantiated, the deferred part writes its functions into
// the first part's table `$table`; `$loaded` set tells the stubs they are there.

let deferredHow = null;

function deferredInstantiate(module, how) {
    if (deferredHow !== null) return;
    new WebAssembly.Instance(module, { $p: wasm });
    wasm.$loaded.value = 1;
    deferredHow = how;
}

// Bytes held as text, one character each.
function deferredBytes(text) {
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    return bytes;
}

// The one-file build (make dist) inlines the part as base64.
function deferredInlined() {
    return deferredBytes(atob(globalThis.raftlabWasmDeferred));
}

// Thrown through the module, which cannot go on from the middle of the
// function that needed the part: the page must be loaded again.
function deferredProblem(status) {
    return new Error(`the rest of the page's module (raftlab_deferred.wasm) could not be fetched (${status}): reload the page`);
}

// A stub ran before the part came: fetch it now, while the module waits
// (a synchronous request: the function must answer before the module goes on).
function loadDeferredNow() {
    let bytes;
    if (globalThis.raftlabWasmDeferred !== undefined) {
        bytes = deferredInlined();
    } else {
        const request = new XMLHttpRequest();
        request.open('GET', new URL('raftlab_deferred.wasm', import.meta.url), false);
        // The bytes as text, one character each (the only way a synchronous
        // request gives binary).
        request.overrideMimeType('text/plain; charset=x-user-defined');
        request.send();
        if (request.status !== 200) throw deferredProblem(`${request.status} ${request.statusText}`);
        bytes = deferredBytes(request.responseText);
    }
    deferredInstantiate(new WebAssembly.Module(bytes), 'when first called');
}

/** Fetch and instantiate the deferred part (after init), unless it is here. */
export async function loadDeferred() {
    if (deferredHow !== null) return;
    let bytes;
    if (globalThis.raftlabWasmDeferred !== undefined) {
        bytes = deferredInlined();
    } else {
        const response = await fetch(new URL('raftlab_deferred.wasm', import.meta.url));
        if (!response.ok) throw deferredProblem(`${response.status} ${response.statusText}`);
        bytes = await response.arrayBuffer();
    }
    deferredInstantiate(await WebAssembly.compile(bytes), 'ahead');
}

/** How the deferred part came: null (not yet), 'ahead' or 'when first called'. */
export function deferredLoaded() {
    return deferredHow;
}
