/** The sha256 port the core asks for, from node:crypto (as the edges inject it). */
import { createHash } from 'node:crypto';
import type { Sha256 } from '../../src/core/ports.js';

export const sha256: Sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
