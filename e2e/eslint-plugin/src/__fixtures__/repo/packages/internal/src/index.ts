export const internal = 1;
