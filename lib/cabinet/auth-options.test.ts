import { describe, expect, it } from "vitest";
import { sessionCookieName } from "./auth-options";

describe("the cabinet's session cookie", () => {
  it("has one name per scheme: __Secure- over https, the plain name over http only", () => {
    expect(sessionCookieName("https://pay.example.com")).toBe("__Secure-next-auth.session-token");
    expect(sessionCookieName("HTTPS://pay.example.com")).toBe("__Secure-next-auth.session-token");
    expect(sessionCookieName("http://localhost:3000")).toBe("next-auth.session-token");
  });
});
