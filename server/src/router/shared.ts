import { z } from 'zod';

export const DeletedOutput = z.object({ id: z.number(), deleted: z.literal(true) });
