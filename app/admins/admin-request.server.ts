import { getAdmin } from "./session.server";

/** Whether the request comes from the logged-in administrator (who may see pending media). */
export async function isAdminRequest(request: Request): Promise<boolean> {
  return (await getAdmin(request)) !== null;
}
