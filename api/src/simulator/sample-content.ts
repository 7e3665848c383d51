/** What simulated residents write: plausible enough that a demo screen looks real. */

export const COMPLAINT_TOPICS: { name: string; note: string }[] = [
  { name: 'Noise at night', note: 'Loud music from the unit above after 11 pm, three nights in a row.' },
  { name: 'Lift out of order', note: 'The lift in our block stops between floors and the doors do not open.' },
  { name: 'Parking space taken', note: 'Someone keeps parking in my space; please check the camera.' },
  { name: 'Corridor lights', note: 'Half of the corridor lights on my floor have been off for a week.' },
  { name: 'Garbage not collected', note: 'The bins by the entrance were not emptied this morning and smell.' },
  { name: 'Suggestion: bicycle racks', note: 'Could we get more bicycle racks near the east gate?' },
  { name: 'Security guard rude', note: 'The guard at the main gate shouted at my visitor.' },
];

/** type: 1 equipment failure, 2 building, 3 environmental sanitation, 4 public order, 5 other. */
export const WORK_ORDERS: { name: string; note: string; type: number }[] = [
  { name: 'Water leaking', note: 'Water drips from the ceiling of the bathroom.', type: 2 },
  { name: 'Door intercom broken', note: 'The intercom at the lobby door does not ring our unit.', type: 1 },
  { name: 'Blocked drain', note: 'The drain in front of the building is blocked after the rain.', type: 3 },
  { name: 'Strangers in the car park', note: 'Two people have been trying car doors on level B2.', type: 4 },
  { name: 'Broken bench', note: 'A bench in the garden has a broken plank.', type: 5 },
  { name: 'Air conditioner noise', note: 'The outdoor unit of the common room rattles loudly.', type: 1 },
];

export const REPLIES = [
  'Any update on this, please?',
  'It happened again today.',
  'Thank you, someone came by this afternoon.',
  'I am at home after 6 pm if you need to come in.',
  'Please call me before coming.',
];

export const CHAT_LINES = [
  'Hello, is anyone at the management office?',
  'Thank you for the quick help!',
  'When will the water be back on?',
  'I will be home after 6 pm.',
  'The parcel room is locked, could someone open it?',
];

/** Where the demo estate's staff punch (DEMO_CHECKIN_PLACE of seed/seed-checkin.ts). */
export const CHECKIN_PLACE = { lat: 22.2799, lng: 114.1588 };

export const POSITIONS = ['At home', 'In the lobby', 'Car park level B1', 'Garden', 'Stairwell'];

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}
