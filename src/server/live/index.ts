export { recordLiveEvent, type LiveEvent, type LiveEventData } from './events.ts';
