// The realtime service's public surface (PocketBase's /api/realtime over Forja's collections).
export {
  closeRealtimeStreams,
  connectRealtimeClient,
  publishToRealtimeClient,
  realtimeClientCount,
  realtimeSettled,
  registerRealtimeSessionCheck,
  subscribeRealtimeClient,
  startRealtime,
  REALTIME_TIMEOUTS,
  type RealtimeAuth,
  type RealtimeClient,
  type SessionCheck,
  type SubscribeStatus,
} from "./hub.server";
export { parseSubscription, SUBSCRIPTION_LIMITS, type Subscription } from "./subscriptions";
