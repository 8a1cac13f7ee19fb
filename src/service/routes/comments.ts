import type { Sandbox, User } from '../context';
import type { Router } from '../http';

export function registerComments(_router: Router<User>, _sb: Sandbox): void {}
