type ToastType = "default" | "destructive";

export interface ToastInput {
  title: string;
  description?: string;
  type?: ToastType;
}

export interface Toast extends Required<Omit<ToastInput, "description">> {
  id: string;
  description?: string;
}
