import { useCallback, useMemo, useRef, useState } from 'react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { FullPageLoader } from '../auth/ProtectedRoute';
import { colorThemeManager, cssVariablesResolver } from '../theme';
import { createHostedApi } from './api';
import { brandTheme, brandVariablesResolver } from './brand-theme';
import { ProjectUnavailable } from './components/ProjectUnavailable';
import { HostedContext, type Hosted } from './HostedContext';
import { HostedI18n } from './i18n/HostedI18n';
import { explicitLocale, hostedLocale, rememberLocale } from './i18n/locale';
import { AcceptInvitationPage } from './pages/AcceptInvitationPage';
import { AccountPage } from './pages/AccountPage';
import { ConfirmEmailChangePage } from './pages/ConfirmEmailChangePage';
import { DevicePage } from './pages/DevicePage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { LinkAccountPage } from './pages/LinkAccountPage';
import { MagicLinkPage } from './pages/MagicLinkPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { SignedOutPage } from './pages/SignedOutPage';
import { SignInPage } from './pages/SignInPage';
import { SignOutPage } from './pages/SignOutPage';
import { SignUpPage } from './pages/SignUpPage';
import { VerifyEmailPage } from './pages/VerifyEmailPage';
import { hostedPaths } from './paths';

/**
 * A project's hosted pages (/hosted/{project_key}/…): a realm of their own, apart from the platform's
 * session. They talk to /hosted/{project_key}/api/v1 with fetch (tokens in the project's HttpOnly
 * cookies) and keep their own query cache; the theme takes the project's accent colour.
 */
export function HostedApp() {
  const { projectKey = '' } = useParams();
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <HostedProjectRoot key={projectKey} projectKey={projectKey} />
    </QueryClientProvider>
  );
}

function HostedProjectRoot({ projectKey }: { projectKey: string }) {
  const { search } = useLocation();
  const explicit = useMemo(() => explicitLocale(projectKey, search), [projectKey, search]);
  const [picked, setPicked] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const locale = hostedLocale(picked ?? explicit, saved);
  // The API asks in the page's language (Accept-Language), so that the mails it sends are in it too.
  const localeRef = useRef(locale);
  localeRef.current = locale;
  const api = useMemo(() => createHostedApi(projectKey, () => localeRef.current), [projectKey]);
  const paths = useMemo(() => hostedPaths(projectKey), [projectKey]);
  const project = useQuery({ queryKey: ['project'], queryFn: api.project, staleTime: Number.POSITIVE_INFINITY });
  const [colorSchemeManager] = useState(colorThemeManager);
  const accent = project.data?.accent_color ?? null;
  const theme = useMemo(() => brandTheme(accent), [accent]);
  const variables = useMemo(() => brandVariablesResolver(accent, cssVariablesResolver), [accent]);
  const pickLocale = useCallback(
    (next: string) => {
      rememberLocale(projectKey, next);
      setPicked(next);
    },
    [projectKey],
  );
  const hosted = useMemo<Hosted | null>(
    () => (project.data ? { project: project.data, api, paths, locale, pickLocale, adoptSavedLocale: setSaved } : null),
    [project.data, api, paths, locale, pickLocale],
  );

  return (
    // A provider of its own: the project's colour replaces the platform's while these pages are open.
    <DirectionProvider initialDirection="ltr" detectDirection={false}>
      <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager} cssVariablesResolver={variables}>
        <HostedI18n locale={locale} overrides={project.data?.string_overrides}>
          {project.isPending ? (
            <FullPageLoader />
          ) : !hosted ? (
            <ProjectUnavailable error={project.error} />
          ) : (
            <HostedContext.Provider value={hosted}>
              <HostedRoutes />
            </HostedContext.Provider>
          )}
        </HostedI18n>
      </MantineProvider>
    </DirectionProvider>
  );
}

function HostedRoutes() {
  const { search } = useLocation();
  const { projectKey = '' } = useParams();
  const signIn = `${hostedPaths(projectKey).page('sign-in')}${search}`;
  return (
    <Routes>
      <Route index element={<Navigate to={signIn} replace />} />
      <Route path="sign-in" element={<SignInPage />} />
      <Route path="sign-up" element={<SignUpPage />} />
      <Route path="forgot-password" element={<ForgotPasswordPage />} />
      <Route path="reset-password" element={<ResetPasswordPage />} />
      <Route path="verify-email" element={<VerifyEmailPage />} />
      <Route path="confirm-email-change" element={<ConfirmEmailChangePage />} />
      <Route path="link-account" element={<LinkAccountPage />} />
      <Route path="magic-link" element={<MagicLinkPage />} />
      <Route path="account" element={<AccountPage />} />
      <Route path="accept-invitation" element={<AcceptInvitationPage />} />
      <Route path="device" element={<DevicePage />} />
      <Route path="sign-out" element={<SignOutPage />} />
      <Route path="signed-out" element={<SignedOutPage />} />
      <Route path="*" element={<Navigate to={signIn} replace />} />
    </Routes>
  );
}
