import { publicAddressProblem, type AddressProblem } from "~/utils/public-address";
import * as s from "./AddressWarning.css";

/** Where the family sets the site's public address (the Site tab's section). */
const PUBLIC_ADDRESS_SETTING = "/admin/site#address";

const WHY: Record<AddressProblem, string> = {
  "this-computer": "it is this computer's own address, which no one else's phone can open",
  "private-network": "it is an address on a private network, which phones elsewhere cannot open",
  "temporary-name": "it is the hosting service's temporary name, not the site's own address",
};

/** For the admin only: the address about to be printed or handed out will not work for guests. */
export function AddressWarning({ address, problem }: { address: string; problem: AddressProblem }) {
  const host = address.replace(/^[a-z]+:\/\//i, "").replace(/\/.*$/, "");
  return (
    <div role="note" aria-label="Check the site's address" className={s.addressWarning}>
      <p className={s.addressWarningText}>
        <strong>Guests may not be able to open {host}:</strong> {WHY[problem]}.{" "}
        <a href={PUBLIC_ADDRESS_SETTING}>Set the site&apos;s public address</a>
      </p>
    </div>
  );
}

/** Under an invitation link: the warning, when the link's address will not open for the person invited. */
export function InvitationAddressWarning({ link }: { link: string }) {
  const problem = publicAddressProblem(link);
  return problem ? <AddressWarning address={link} problem={problem} /> : null;
}
