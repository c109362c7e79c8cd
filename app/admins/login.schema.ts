import { z } from "~/utils/zod";

// Shared by the login form in the browser, its action and POST /api/admin/login.
export const LoginSchema = z.object({
  username: z.string({ message: "Username is required" }).trim().min(1, "Username is required").max(100, "Username is too long"),
  password: z.string({ message: "Password is required" }).min(1, "Password is required").max(1000, "Password is too long"),
  redirectTo: z.string().optional(),
});

export const LOGIN_FAILED = { title: "Login Failed", description: "Invalid username or password." } as const;
export const LOGIN_SUCCESS = { title: "Login Successful", description: "Welcome to the admin panel." } as const;
export const LOGGED_OUT = { title: "Logged Out", description: "You have been logged out successfully." } as const;
