// Wires the page to the wasm app; all state and drawing live in Rust.
import init, { App } from "./pkg/raftlab.js";

await init();
const canvas = document.getElementById("cluster");
const app = new App(3);
const ctx = canvas.getContext("2d");
app.draw(ctx, canvas.width, canvas.height);
document.getElementById("status").textContent = `${app.nodeCount()} voters`;
window.raftlab = { app };
