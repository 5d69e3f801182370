// Fails fast when a script runs on a Node other than the pinned v24 (npm puts node_modules/.bin first).
const major = Number(process.versions.node.split(".")[0]);
if (major !== 24) {
  console.error(
    `Forja necesita Node 24 y se está ejecutando con ${process.version}.\n` +
      "Use los scripts de npm (npm start, npm test, npm run dev): instalan y usan Node 24 desde node_modules/.bin.",
  );
  process.exit(1);
}
