export { recordLiveEvent, type LiveEvent, type LiveEventData } from './events.ts';

export { closeLiveStreams, endLiveSession } from './hub.ts';
export { eventIdOf, liveStream } from './stream.ts';
