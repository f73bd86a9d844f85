/**
 * AccountService: sign-up, e-mail verification, login with two-factor, sessions (access token +
 * rotating refresh token), password reset and two-factor setup. HTTP-free: the dashboard routes
 * call it with validated input and turn its PrintwireErrors into responses.
 *
 * One service to its callers, written by subject: arriving (registration.ts: sign-up,
 * verification, password reset, invitations), signing in (sessions.ts), two-factor
 * (two-factor.ts), and what they share (context.ts). Each method is documented where it is
 * written.
 */
import { AccountContext, type AccountLifetimes, type AccountServiceDeps } from './context.js';
import { Registration } from './registration.js';
import { Sessions } from './sessions.js';
import { TwoFactor } from './two-factor.js';

export {
  DEFAULT_LIFETIMES,
  presentUser,
  RECOVERY_CODE_COUNT,
  type AccountLifetimes,
  type AccountServiceDeps,
  type IssuedSession,
  type LoginResult,
  type MailNudge,
  type SecondFactor,
  type UserView,
} from './context.js';

// Methods are fields bound to their part, so a test may stand one in.
export class AccountService {
  readonly lifetimes: AccountLifetimes;
  signup: Registration['signup'];
  resendVerification: Registration['resendVerification'];
  verifyEmail: Registration['verifyEmail'];
  forgotPassword: Registration['forgotPassword'];
  resetPassword: Registration['resetPassword'];
  invite: Registration['invite'];
  login: Sessions['login'];
  completeChallenge: Sessions['completeChallenge'];
  refresh: Sessions['refresh'];
  logout: Sessions['logout'];
  sessionOfRefresh: Sessions['sessionOfRefresh'];
  authenticate: Sessions['authenticate'];
  me: Sessions['me'];
  updateMe: Sessions['updateMe'];
  setupTwoFactor: TwoFactor['setupTwoFactor'];
  confirmTwoFactor: TwoFactor['confirmTwoFactor'];
  disableTwoFactor: TwoFactor['disableTwoFactor'];

  constructor(deps: AccountServiceDeps) {
    const ctx = new AccountContext(deps);
    const registration = new Registration(ctx);
    const sessions = new Sessions(ctx);
    const twoFactor = new TwoFactor(ctx);
    this.lifetimes = ctx.lifetimes;
    this.signup = registration.signup.bind(registration);
    this.resendVerification = registration.resendVerification.bind(registration);
    this.verifyEmail = registration.verifyEmail.bind(registration);
    this.forgotPassword = registration.forgotPassword.bind(registration);
    this.resetPassword = registration.resetPassword.bind(registration);
    this.invite = registration.invite.bind(registration);
    this.login = sessions.login.bind(sessions);
    this.completeChallenge = sessions.completeChallenge.bind(sessions);
    this.refresh = sessions.refresh.bind(sessions);
    this.logout = sessions.logout.bind(sessions);
    this.sessionOfRefresh = sessions.sessionOfRefresh.bind(sessions);
    this.authenticate = sessions.authenticate.bind(sessions);
    this.me = sessions.me.bind(sessions);
    this.updateMe = sessions.updateMe.bind(sessions);
    this.setupTwoFactor = twoFactor.setupTwoFactor.bind(twoFactor);
    this.confirmTwoFactor = twoFactor.confirmTwoFactor.bind(twoFactor);
    this.disableTwoFactor = twoFactor.disableTwoFactor.bind(twoFactor);
  }
}
