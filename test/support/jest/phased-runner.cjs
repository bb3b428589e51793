/**
 * jest's own runner, run in three phases: the load test first (it measures
 * the stack it starts, so nothing else runs beside it), then every other test
 * file in parallel, then the log audit, which reads what the shared local
 * stack logged during the integration and e2e tests. Every project names this
 * runner, so jest hands all the run's test files to one runTests call.
 * It also notes whether any file failed, so the shared stack's teardown keeps
 * its log for the reader (test/support/jest/stack-teardown.js).
 */
const { default: TestRunner } = require('jest-runner');

const projectOf = (test) => {
  const name = test.context.config.displayName;
  return typeof name === 'string' ? name : name?.name;
};

class PhasedRunner extends TestRunner {
  async runTests(tests, watcher, options) {
    const load = tests.filter((test) => projectOf(test) === 'load');
    const audit = tests.filter((test) => projectOf(test) === 'audit');
    const rest = tests.filter((test) => !load.includes(test) && !audit.includes(test));
    if (audit.length > 0 && !rest.some((test) => ['integration', 'e2e'].includes(projectOf(test)))) {
      throw new Error('test/audit checks the logs of the integration and e2e tests: name some of those too (e.g. npm test -- test/integration test/audit)');
    }
    const noteFailures = [
      this.on('test-file-failure', () => (globalThis.__urmTestRunFailed = true)),
      this.on('test-file-success', ([, result]) => {
        if (result.numFailingTests > 0 || result.testExecError) globalThis.__urmTestRunFailed = true;
      }),
    ];
    try {
      for (const phase of [load, rest, audit]) {
        if (phase.length > 0 && !watcher.isInterrupted()) await super.runTests(phase, watcher, options);
      }
    } finally {
      for (const unsubscribe of noteFailures) unsubscribe();
    }
  }
}

module.exports = PhasedRunner;
