import type { APIRoute } from 'astro';
import { healthResponse } from '../server/health.ts';

export const prerender = false;

/** 200 `{"status":"ok"}` when the database answers, 503 otherwise (src/server/health.ts). */
export const GET: APIRoute = () => healthResponse();
