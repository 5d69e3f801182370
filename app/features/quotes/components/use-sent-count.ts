import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";

// How many times a form with this intent was posted from the page and came back (sent or refused).
// The message forms are keyed by it, so they start empty after a message is sent, and never
// remount when the page's data reloads for another reason (a live update, another form):
// what is being typed stays. A refused message comes back with its text (conform's lastResult, or
// the staff form's own default).

export function useSentCount(intent: string): number {
  const navigation = useNavigation();
  const [count, setCount] = useState(0);
  const posting = useRef(false);
  const postingNow = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  useEffect(() => {
    if (posting.current && !postingNow) setCount((value) => value + 1);
    posting.current = postingNow;
  }, [postingNow]);
  return count;
}
