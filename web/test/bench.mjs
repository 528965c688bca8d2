// `bench` through the package, as the native `jiangjun bench` runs it:
// prints the engine's three result lines. Usage: node web/test/bench.mjs [depth]
import Jiangjun from '../pkg/jiangjun.mjs';

const depth = process.argv[2] ?? '';
const engine = await Jiangjun();
engine.addMessageListener((line) => {
  if (/^(Total time|Nodes|info string error)/.test(line)) console.log(line);
  if (line.startsWith('Nodes/second') || line.startsWith('info string error')) {
    engine.terminate();
  }
});
engine.postMessage('uci');
engine.postMessage(`bench ${depth}`.trim());
