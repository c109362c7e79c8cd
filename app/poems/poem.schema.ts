import { z } from "~/utils/zod";

// Client-safe: the admin's poem form validates with it in the browser too.
export const PoemInput = z.object({
  title: z.string({ message: "Title is required" }).trim().min(1, "Title is required").max(200, "Title must be at most 200 characters"),
  author: z
    .string()
    .trim()
    .max(100, "Author must be at most 100 characters")
    .transform((v) => v || undefined)
    .optional(),
  content: z
    .string({ message: "Content is required" })
    .trim()
    .min(1, "Content is required")
    .max(20_000, "Content must be at most 20,000 characters"),
});
export type PoemInput = z.infer<typeof PoemInput>;

export const POEM_CREATED = { title: "Poem Created", description: "The poem has been added successfully." } as const;
export const POEM_DELETED = { title: "Poem Deleted", description: "The poem has been removed successfully." } as const;
export const DELETE_POEM_FAILED = { title: "Error", description: "Failed to delete poem.", type: "destructive" } as const;

/** What visitors and the JSON API see of a poem. */
export interface PoemView {
  id: number;
  title: string;
  author: string | null;
  content: string;
  createdAt: string;
}
