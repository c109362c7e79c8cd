import { describe, expect, it } from "vitest";
import { publicAddressProblem } from "~/utils/public-address";

describe("publicAddressProblem: addresses guests' phones cannot open", () => {
  it.each([
    "http://127.0.0.1:3760",
    "http://127.5.6.7/",
    "http://localhost:3000",
    "https://memorial.localhost",
    "http://[::1]:3760",
    "http://[::ffff:127.0.0.1]/",
    "http://0.0.0.0:3000",
    "localhost",
  ])("%s is this computer's own", (address) => {
    expect(publicAddressProblem(address)).toBe("this-computer");
  });

  it.each([
    "http://10.0.0.5",
    "http://172.16.0.1",
    "http://172.31.255.255",
    "http://192.168.1.20:3760",
    "http://169.254.10.10",
    "http://[fc00::1]",
    "http://[fd12:3456::1]",
    "http://[fe80::1]",
    "http://[::ffff:192.168.0.1]",
    "http://grandmas-mac.local",
    "192.168.0.2",
  ])("%s is on a private network", (address) => {
    expect(publicAddressProblem(address)).toBe("private-network");
  });

  it.each(["https://memorial-walter.fly.dev", "https://fly.dev", "MEMORIAL.FLY.DEV"])("%s is a temporary name", (address) => {
    expect(publicAddressProblem(address)).toBe("temporary-name");
  });

  it.each([
    "https://memorial.example.com",
    "https://walter.example.org/",
    "http://172.15.0.1",
    "http://172.32.0.1",
    "http://8.8.8.8",
    "http://[2001:db8::1]",
    "https://local.example.com",
    "https://notfly.dev",
    "https://fly.dev.example.com",
    "not a url at all [",
  ])("%s is fine (or cannot be judged)", (address) => {
    expect(publicAddressProblem(address)).toBeNull();
  });
});
