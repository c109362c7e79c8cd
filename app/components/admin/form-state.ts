import { useNavigation, useRouteLoaderData } from "@remix-run/react";

/** The intent being sent right now to `action`, to show the pressed button as busy. */
export function useSendingIntent(action: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formAction?.startsWith(action) ? navigation.formData?.get("intent") : null;
}

/** After a change the page's toast is new: a key for a fresh, empty form. */
export function useToastId() {
  return useRouteLoaderData<{ toast?: { id: string } | null }>("root")?.toast?.id ?? "form";
}
