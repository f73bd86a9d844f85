/** The invitation link's page: signed out, sign up or log in first (then back here); signed in, join. */
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, api, data } from '../api/client';
import { keys, queryClient } from '../data';
import { useSession } from '../session';
import { Button, FormError, useAction } from '../ui';
import { AuthCard } from './auth';

export function AcceptInvitation() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const accept = useAction(() => data(api.POST('/invitations/accept', { body: { token } })), {
    onSuccess: async (accepted) => {
      await queryClient.invalidateQueries({ queryKey: keys.orgs });
      void navigate(`/o/${accepted.organization.id}`);
    },
  });
  if (session.status !== 'signed-in') {
    const next = `?next=${encodeURIComponent(pathname + search)}`;
    return (
      <AuthCard title={t('invitation.title')} lead={t('invitation.signedOut')}>
        <div className="actions">
          <Link className="button primary" to={`/login${next}`}>
            {t('login.submit')}
          </Link>
          <Link className="button secondary" to={`/signup${next}`}>
            {t('signup.submit')}
          </Link>
        </div>
      </AuthCard>
    );
  }
  const wrongUser = accept.error instanceof ApiError && accept.error.status === 403;
  return (
    <AuthCard
      title={t('invitation.title')}
      lead={t('invitation.signedIn', { email: session.user.email })}
    >
      {wrongUser ? (
        <p className="form-error" role="alert">
          {t('invitation.wrongUser', { email: session.user.email })}
        </p>
      ) : accept.error instanceof ApiError && accept.error.field('token') ? (
        <p className="form-error" role="alert">
          {t('invitation.badLink')}
        </p>
      ) : (
        <FormError error={accept.error} />
      )}
      <Button busy={accept.isPending} onClick={() => accept.mutate()}>
        {t('invitation.accept')}
      </Button>
    </AuthCard>
  );
}
