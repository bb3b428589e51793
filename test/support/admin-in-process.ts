/**
 * `npm run admin -- …` against a test stack, run in this process (no child,
 * no bundle build): what it printed. For tests that check what the command
 * line does; test/support/local-stack.ts `adminCli` runs the real launcher.
 */
import { jest } from '@jest/globals';
import { adminProgram } from '../../bin/admin';

export async function adminInProcess(dataDir: string, ...args: string[]): Promise<string> {
  const printed = jest.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await adminProgram()
      .exitOverride()
      .parseAsync(['--data-dir', dataDir, ...args], { from: 'user' });
    return printed.mock.calls.map((call) => String(call[0])).join('\n');
  } finally {
    printed.mockRestore();
  }
}
