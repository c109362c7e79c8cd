import type { MetaFunction } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import { pageMeta } from "~/utils/meta";

function notFound() {
  return new Response(null, { status: 404 });
}

export const loader = notFound;
export const action = notFound;

export default function NotFoundPage() {
  return <NotFound />;
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "404 Page Not Found", exactTitle: true });
