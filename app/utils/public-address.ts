// Whether an address is one guests' phones cannot open from anywhere (or
// one that is only a stand-in): the printed cards, the slideshow's QR code
// and invitation links name it, so the admin is warned before handing it out.

export type AddressProblem = "this-computer" | "private-network" | "temporary-name";

function ipv4Problem(parts: number[]): AddressProblem | null {
  const [a, b] = parts as [number, number, number, number];
  if (a === 127 || a === 0) return "this-computer";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) return "private-network";
  return null;
}

function ipv4(host: string): number[] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!match) return null;
  const parts = match.slice(1).map(Number);
  return parts.every((part) => part <= 255) ? parts : null;
}

function ipv6Problem(host: string): AddressProblem | null {
  if (host === "::1" || host === "::") return "this-computer";
  // An IPv4 address written as IPv6 (the URL parser gives ::ffff:7f00:1 for ::ffff:127.0.0.1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const high = parseInt(mapped[1]!, 16);
    const low = parseInt(mapped[2]!, 16);
    return ipv4Problem([high >> 8, high & 255, low >> 8, low & 255]);
  }
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted) {
    const parts = ipv4(dotted[1]!);
    return parts ? ipv4Problem(parts) : null;
  }
  const first = parseInt(host.split(":")[0] || "0", 16);
  // fc00::/7 (unique local) and fe80::/10 (link-local).
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80) return "private-network";
  return null;
}

/**
 * What is wrong with `address` (a full URL or a bare host) as the site's
 * public address: this computer's own (localhost, 127.0.0.0/8, ::1), a
 * private network's (10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7,
 * *.local) or a hosting service's temporary name (*.fly.dev); null when it
 * is fine, or cannot be read.
 */
export function publicAddressProblem(address: string): AddressProblem | null {
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`).hostname.toLowerCase();
  } catch {
    return null;
  }
  host = host.replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) return ipv6Problem(host.slice(1, -1));
  const parts = ipv4(host);
  if (parts) return ipv4Problem(parts);
  if (host === "localhost" || host.endsWith(".localhost")) return "this-computer";
  if (host.endsWith(".local")) return "private-network";
  if (host === "fly.dev" || host.endsWith(".fly.dev")) return "temporary-name";
  return null;
}
