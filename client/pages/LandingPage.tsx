import { Navigate } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { CallToAction } from '../components/landing/CallToAction';
import { Features } from '../components/landing/Features';
import { Hero } from '../components/landing/Hero';
import { Pricing } from '../components/landing/Pricing';
import { Testimonials } from '../components/landing/Testimonials';
import { siteConfig } from '../lib/site';

/** The marketing page, unless the operator turned it off (LANDING_PAGE=off): then `/` is the sign-in. */
export function LandingPage() {
  const { user } = useAuth();
  if (!siteConfig().landingPage) return <Navigate to="/login" replace />;
  const dashboard = { to: '/dashboard', label: 'Go to dashboard' };
  return (
    <>
      <Hero cta={user ? dashboard : { to: '/signup', label: 'Get started free' }} />
      <Features />
      <Testimonials />
      <Pricing />
      <CallToAction cta={user ? dashboard : { to: '/signup', label: 'Create your free account' }} />
    </>
  );
}
