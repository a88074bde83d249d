// Validates a glTF 2.0 file with the Khronos glTF-Validator (npm gltf-validator, installed by
// scripts/install-deps.sh into .tools/gltf-validator). Prints the report's counts and its
// errors; exit 0 with no errors, 1 with errors, 2 when the file cannot be read.
// Usage: node tests/cli/validate_gltf.js FILE.glb
const fs = require('fs');
const path = require('path');
const validator = require(path.join(__dirname, '..', '..', '.tools', 'gltf-validator', 'node_modules', 'gltf-validator'));

const file = process.argv[2];
let bytes;
try {
  bytes = new Uint8Array(fs.readFileSync(file));
} catch (error) {
  console.error(`validate_gltf: cannot read ${file}: ${error.message}`);
  process.exit(2);
}
validator.validateBytes(bytes, {maxIssues: 100}).then((report) => {
  const errors = report.issues.messages.filter((m) => m.severity === 0);
  console.log(`${file}: ${report.issues.numErrors} errors, ${report.issues.numWarnings} warnings`);
  for (const e of errors) console.log(`  ${e.code} at ${e.pointer}: ${e.message}`);
  process.exit(report.issues.numErrors > 0 ? 1 : 0);
}, (error) => {
  console.error(`validate_gltf: ${file}: ${error}`);
  process.exit(2);
});
