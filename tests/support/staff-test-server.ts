import { afterAll, beforeAll } from "vitest";
import { getAuthSecret } from "~/services/security/secret.server";
import { signedInStaff } from "./auth-requests";
import { startTestServer, type TestServer } from "./test-server";

/**
 * The real production server for one test file, on the file's DATA_DIR (isolateTestEnv) and auth
 * secret, with `staff` signed in while the database is prepared: started before the file's tests,
 * stopped after them. Read `server` and `staffCookie` inside the tests.
 */
export function useStaffTestServer(dataDir: string, staff: { email: string; password: string; name: string }): { server: TestServer; staffCookie: string } {
  const running = { server: undefined as TestServer | undefined, staffCookie: "" };
  beforeAll(async () => {
    running.server = await startTestServer({
      dataDir,
      env: { AUTH_SECRET: getAuthSecret() },
      prepare: async () => {
        running.staffCookie = (await signedInStaff(staff.email, staff.password, staff.name)).cookie;
      },
    });
  }, 300_000);
  afterAll(async () => {
    await running.server?.stop();
  });
  return {
    get server() {
      if (!running.server) throw new Error("the test server is not running");
      return running.server;
    },
    get staffCookie() {
      return running.staffCookie;
    },
  };
}
